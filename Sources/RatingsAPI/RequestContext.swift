import HTTP1
import RatingsCore

/// Everything a handler knows about the request it answers: the request and its parsed target,
/// the route's path parameters, the request id, where it came from, the ways to choose its
/// language, check its caller and log, and the one way to answer it (`respond`, which runs the
/// middleware on the way out). Built once per request by the API; a class, so the middleware
/// and the continuations share one instead of copying it, or a chain of closures, at every step.
// Safe: `requestID` is set once, by the request-id middleware, before anything else reads it or
// the context leaves the request's loop, and `seconds` once, in `respond`, on the request's loop
// before the middleware that reads it; every other property is immutable.
final class RequestContext: @unchecked Sendable {
    let request: HTTPRequest
    /// The request target, split once into path and query.
    let target: RequestTarget
    let environment: RequestEnvironment
    /// The matched route's index in the route table (`nil`: no route matched).
    let routeIndex: Int?
    /// The matched route's pattern, which says where in the path each parameter is.
    private let pattern: RoutePattern?
    /// The request id: the client's `X-Request-ID` when acceptable, else a generated one.
    var requestID: String
    /// When the complete request reached the API, on the monotonic clock.
    let started: Double
    /// How long the request took, from `started` to its answer: set once in `respond`, so the
    /// metrics and the access log share one clock read.
    private(set) var seconds: Double = 0
    let services: APIServices
    /// The steps the response passes on its way out, in reverse, then the server's delivery.
    private let middleware: MiddlewareChain
    private let deliver: HTTPHandler.Respond

    init(request: HTTPRequest, target: RequestTarget, environment: RequestEnvironment,
         route: (index: Int, pattern: RoutePattern)?,
         requestID: String, started: Double, services: APIServices, middleware: MiddlewareChain,
         deliver: @escaping HTTPHandler.Respond) {
        self.request = request
        self.target = target
        self.environment = environment
        routeIndex = route?.index
        pattern = route?.pattern
        self.requestID = requestID
        self.started = started
        self.services = services
        self.middleware = middleware
        self.deliver = deliver
    }

    /// Answers the request, once: the middleware sees the response on its way out (innermost
    /// step first), then the server gets it.
    func respond(_ response: consuming HTTPResponse) {
        var response = response
        seconds = services.clock.monotonicSeconds() - started
        middleware.response(self, &response)
        deliver(consume response) // moved: a copy retained the fields and body the delivery takes
    }

    /// The value of the path parameter `name` (percent-decoded), or "" when the route has none.
    /// Made only when asked for: the route matched without making text of the path.
    func parameter(_ name: String) -> String {
        // A direct call: `flatMap(target.pathSegment(at:))` copied the target into a closure.
        guard let position = pattern?.position(of: name) else { return "" }
        return target.pathSegment(at: position) ?? ""
    }

    /// The language of the response: `lang`, else `Accept-Language`, else the fallback.
    func language() throws -> WireLanguage { try services.language(of: request, target) }

    /// The caller proven by a bearer token; nil when the API runs open. Throws 401 when tokens
    /// are required and the request has none, or an invalid one.
    func identity() throws -> RaterIdentity? { try services.access.identity(of: request) }

    /// Writes `message` to the error log with this request's id.
    func log(_ message: String) { services.errorLog.write(message, requestID: requestID) }

    /// A store completion that continues on this request's loop: the value becomes a response
    /// through `body`, and any error (from the store or from `body`) its problem response.
    func reply<Value: Sendable>(_ body: @escaping @Sendable (Value) throws -> HTTPResponse) -> StoreCompletion<Value> {
        { [self] result in
            // Straight on when the store answered on the loop itself (from memory), else via the loop.
            if environment.loop.isCurrent {
                finish(result, body)
            } else {
                environment.loop.execute { self.finish(result, body) }
            }
        }
    }

    private func finish<Value>(_ result: Result<Value, any Error>, _ body: (Value) throws -> HTTPResponse) {
        do {
            respond(try body(result.get()))
        } catch {
            respond(fail(error))
        }
    }

    /// The problem response for `error`, logging what the client must not see.
    func fail(_ error: any Error) -> HTTPResponse {
        ErrorResponse.make(error) { log($0) }
    }
}
