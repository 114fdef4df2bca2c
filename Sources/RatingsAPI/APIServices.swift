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
        errorLog = ErrorLog(format: configuration.logFormat, clock: configuration.clock, write: configuration.errorLog)
    }
}

/// Server-side failures, one line each, with the request id when there is one.
struct ErrorLog: Sendable {
    let format: LogFormat
    let clock: any APIClock
    let write: @Sendable (String) -> Void

    func write(_ message: String, requestID: String?) {
        write(LogLine.make(message, requestID: requestID, format: format, wallMilliseconds: clock.wallMilliseconds()))
    }
}
