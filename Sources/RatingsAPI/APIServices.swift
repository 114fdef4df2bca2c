import HTTP1
import RatingsCore

/// What every request of one API shares beyond the route table: language negotiation, token
/// checks, the error log and the clocks. Handed to each `RequestContext`.
final class APIServices: Sendable {
    let languages: LanguageNegotiator
    let access: Access
    let errorLog: ErrorLog
    let clock: any APIClock

    init(_ configuration: APIConfiguration) {
        languages = LanguageNegotiator(configuration.languages)
        clock = configuration.clock
        access = Access(verifier: configuration.identityVerifier, clock: configuration.clock)
        errorLog = ErrorLog(format: configuration.logFormat, clock: configuration.clock, throttle: configuration.errorLogThrottle,
                            write: configuration.errorLog)
    }

    /// The language of the response to `request`, asked of the negotiator this holds directly.
    func language(of request: HTTPRequest, _ target: RequestTarget) throws -> WireLanguage {
        try languages.negotiate(request, target)
    }
}

/// Server-side failures and notes, one line each in `format`, with the request id when there is
/// one; a message that repeats is written at most once a second, with a count of those held back
/// (`LogThrottle`). The API's error log, and the executable's standard error, are one of these.
public struct ErrorLog: Sendable {
    let format: LogFormat
    let clock: any APIClock
    let throttle: LogThrottle
    let write: @Sendable (String) -> Void

    /// Lines go to `write`, already formatted.
    public init(format: LogFormat, clock: any APIClock, throttle: LogThrottle, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.clock = clock
        self.throttle = throttle
        self.write = write
    }

    /// `message` at `level`, about the request `requestID` names (nil: none), unless held back.
    public func write(_ message: String, level: LogLine.Level = .error, requestID: String? = nil) {
        let (earlier, admitted) = throttle.admit(message, now: Int64(clock.monotonicSeconds() * 1_000))
        let wall = clock.wallMilliseconds()
        for line in earlier { write(LogLine.make(line, level: level, format: format, wallMilliseconds: wall)) }
        if let admitted { write(LogLine.make(admitted, level: level, requestID: requestID, format: format, wallMilliseconds: wall)) }
    }
}
