import HTTP1
import RatingsCore

/// Everything an endpoint knows about the request it answers: the request and its parsed target,
/// the route's path parameters, the request id (decided before the context is made), where it
/// came from, and the ways to choose its language, check its caller and log. Immutable; the
/// endpoint answers by returning a `Reply`. A class, so the middleware and a pending reply's
/// continuation share one instead of copying its fields at every step.
final class RequestContext: Sendable {
    let request: HTTPRequest
    /// The request target, split once into path and query.
    let target: RequestTarget
    let environment: RequestEnvironment
    /// The matched route's index in the route table (`nil`: no route matched).
    let routeIndex: Int?
    /// The matched route's pattern, which says where in the path each parameter is.
    private let pattern: RoutePattern?
    /// The request id: the client's `X-Request-ID` when acceptable, else a generated one.
    let requestID: String
    /// When the complete request reached the API, on the monotonic clock.
    let started: Double
    let services: APIServices

    init(request: HTTPRequest, target: RequestTarget, environment: RequestEnvironment,
         route: (index: Int, pattern: RoutePattern)?, requestID: String, started: Double, services: APIServices) {
        self.request = request
        self.target = target
        self.environment = environment
        routeIndex = route?.index
        pattern = route?.pattern
        self.requestID = requestID
        self.started = started
        self.services = services
    }

    /// Seconds since the request reached the API.
    func elapsedSeconds() -> Double { services.clock.monotonicSeconds() - started }

    /// The value of the path parameter `name` (percent-decoded). Made only when asked for: the
    /// route matched without making text of the path. An endpoint asking for a parameter its
    /// route lacks is a programming error, which a debug build stops at (every route is tested).
    func parameter(_ name: PathParameter) -> String {
        // Called directly rather than through `flatMap`, which would capture a copy of the target.
        guard let position = pattern?.position(of: name) else {
            assertionFailure("the route \(pattern?.description ?? "-") has no parameter \(name)")
            return ""
        }
        return target.pathSegment(at: position) ?? ""
    }

    /// The language of the response: `lang`, else `Accept-Language`, else the fallback.
    func language() throws -> WireLanguage { try services.language(of: request, target) }

    /// The caller proven by a bearer token; nil when the API runs open. Throws 401 when tokens
    /// are required and the request has none, or an invalid one.
    func identity() throws -> RaterIdentity? { try services.access.identity(of: request) }

    /// The verified caller when the request carries credentials; nil when it carries none (a
    /// read anyone may make). A bad token is still 401.
    func identityIfGiven() throws -> RaterIdentity? {
        request.headers["authorization"] == nil ? nil : try identity()
    }

    /// Writes `message` to the error log with this request's id.
    func log(_ message: String) { services.errorLog.write(message, requestID: requestID) }

    /// The reply of a store call: `call` runs the store, and its result is rendered by `render`
    /// on this request's loop (`Reply.store`).
    func store<Value: Sendable>(_ call: @escaping @Sendable (_ completion: @escaping StoreCompletion<Value>) -> Void,
                                render: @escaping @Sendable (Value) throws -> HTTPResponse) -> Reply {
        .store(on: environment.loop, call, render: render)
    }

    /// The problem response for `error`, logging what the client must not see.
    func fail(_ error: any Error) -> HTTPResponse {
        ErrorResponse.make(error) { log($0) }
    }
}
