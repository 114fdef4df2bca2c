import HTTP1

/// The API's middleware, in the one order they run: on the way in the request id first (so
/// everything after can log it), then the access log, metrics and conditional GET; on the way
/// out in reverse, so the access log sees the final status, a 304 included. Concrete steps
/// rather than an array of `any Middleware`: each existential step cost a copy of its box, with
/// its retains, on every request.
final class MiddlewareChain: Sendable {
    let requestID: RequestIDMiddleware
    let accessLog: AccessLogMiddleware
    let metrics: MetricsMiddleware
    let conditionalGET: ConditionalGETMiddleware

    init(requestID: RequestIDMiddleware, accessLog: AccessLogMiddleware, metrics: MetricsMiddleware,
         conditionalGET: ConditionalGETMiddleware) {
        self.requestID = requestID
        self.accessLog = accessLog
        self.metrics = metrics
        self.conditionalGET = conditionalGET
    }

    /// On the way in, outermost first.
    func request(_ context: RequestContext) throws {
        requestID.request(context)
        try accessLog.request(context)
        try metrics.request(context)
        try conditionalGET.request(context)
    }

    /// The answer to a request the server refused before any handler saw it: the API's problem
    /// type, a new request id on it and in its access-log line.
    func refused(_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> HTTPResponse {
        var response = ErrorResponse.refusal(refusal)
        response.requestID = requestID.id(from: nil)
        accessLog.refused(refusal, requestID: response.requestID, environment)
        return response
    }

    /// On the way out, innermost first.
    func response(_ context: RequestContext, _ response: inout HTTPResponse) {
        conditionalGET.response(context, &response)
        metrics.response(context, &response)
        accessLog.response(context, &response)
        requestID.response(context, &response)
    }
}
