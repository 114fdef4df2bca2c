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

/// Server-side failures, one line each, with the request id when there is one; a failure that
/// repeats is written at most once a second, with a count of those held back (`LogThrottle`).
struct ErrorLog: Sendable {
    let format: LogFormat
    let clock: any APIClock
    let throttle: LogThrottle
    let write: @Sendable (String) -> Void

    func write(_ message: String, requestID: String?) {
        let (earlier, admitted) = throttle.admit(message, now: Int64(clock.monotonicSeconds() * 1_000))
        let wall = clock.wallMilliseconds()
        for line in earlier { write(LogLine.make(line, format: format, wallMilliseconds: wall)) }
        if let admitted { write(LogLine.make(admitted, requestID: requestID, format: format, wallMilliseconds: wall)) }
    }
}
