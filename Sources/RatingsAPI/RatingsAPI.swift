public import HTTP1
public import RatingsCore

/// The ratings API v1. A request turns through one path: its id is decided, the route table finds
/// its route and path parameters, the middleware (access log, metrics, conditional GET) wraps it,
/// and the route's endpoint returns its reply through the store; every error becomes problem+json
/// in one place (`ErrorResponse`). It sees storage only through `RatingStore` and the server only
/// through `HTTPHandler`.
public final class RatingsAPI: Sendable {
    let store: any ReviewStore
    let configuration: APIConfiguration
    let services: APIServices
    let metrics: APIMetrics
    /// Hot items' summaries, rendered once per language and reused while they stay the same.
    let renderings = SummaryRenderings(capacity: 4_096)
    /// Pages of reviews as answered, for stores that vouch for their lists' versions.
    let reviewPages: ReviewPageRenderings
    /// Displays asked for before, rendered once per value, scale and language.
    let displayRenderings = DisplayRenderings(capacity: 1_024)
    let router = Router(routes: RatingsAPI.routeTable)
    let requestIDs = RequestIDs()
    private let accessLog: AccessLogMiddleware
    /// The steps around every request, outermost first (`steps` lists them).
    private let middleware: Steps

    public init(store: any ReviewStore, configuration: APIConfiguration) {
        self.store = store
        self.configuration = configuration
        reviewPages = ReviewPageRenderings(capacity: configuration.reviewPageCache)
        services = APIServices(configuration)
        metrics = APIMetrics(routePatterns: router.routes.map(\.pattern.description))
        accessLog = AccessLogMiddleware(format: configuration.logFormat, clock: configuration.clock)
        middleware = Self.steps(accessLog: accessLog, metrics: metrics)
    }

    /// The steps around every request, outermost first: the access log sees the answer as it
    /// leaves (a 304 included), the metrics count it, and conditional GET turns a matching answer
    /// into a 304. A new step goes into this list, and `Steps` follows it.
    private static func steps(accessLog: AccessLogMiddleware, metrics: APIMetrics) -> Steps {
        accessLog
            .wrapping(MetricsMiddleware(metrics: metrics))
            .wrapping(ConditionalGETMiddleware())
    }

    private typealias Steps = Wrapped<Wrapped<AccessLogMiddleware, MetricsMiddleware>, ConditionalGETMiddleware>

    /// This API as the server's handler.
    public var handler: HTTPHandler {
        HTTPHandler(handle: { [self] request, environment, respond in answer(request, environment, later: respond) },
                    refused: { [self] refusal, environment in refused(refusal, environment) })
    }

    /// Answers one request through `respond`, now or later: for callers without a connection
    /// (tests, tools); the server takes `answer`'s result instead.
    public func handle(_ request: consuming HTTPRequest, _ environment: RequestEnvironment, respond: @escaping HTTPHandler.Respond) {
        if case .now(let response) = answer(request, environment, later: respond) { respond(response) }
    }

    /// Answers one request: the response now when the reply is ready, else `.later`, and the
    /// response through `later` once the store has answered, on the request's loop after this has
    /// returned (the one hop a pending reply takes, in `Reply.store`).
    func answer(_ request: consuming HTTPRequest, _ environment: RequestEnvironment, later: @escaping HTTPHandler.Respond) -> HTTPHandler.Answer {
        let target = RequestTarget(request.target)
        // A path whose escapes do not decode matches no route; `dispatch` says why.
        let routeIndex = target.pathDecodes ? router.match(target) : nil
        let requestID = requestIDs.id(from: request.headers["x-request-id"])
        let context = RequestContext(
            request: request, target: target, environment: environment,
            route: routeIndex.map { (index: $0, pattern: router.routes[$0].pattern) },
            requestID: requestID, started: configuration.clock.monotonicSeconds(), services: services)
        switch middleware.handle(context, next: dispatch) {
        case .now(var response):
            response.requestID = requestID
            return .now(response)
        case .later(let pending):
            // On the request's loop, after this has returned (`Reply.store` hops there).
            pending.start { result in
                var response: HTTPResponse
                switch result {
                case .success(let rendered): response = rendered
                case .failure(let error): response = context.fail(error)
                }
                response.requestID = requestID
                later(response)
            }
            return .later
        }
    }

    /// The innermost step: the route's endpoint for the method, or the 400, 404 or 405 that
    /// says why there is none; an error it throws becomes its problem response, now.
    private func dispatch(_ context: RequestContext) -> Reply {
        do {
            guard let index = context.routeIndex else {
                guard context.target.pathDecodes else {
                    throw APIError.invalidQuery("The path has a malformed percent-escape or is not UTF-8; encode each byte as %XX.")
                }
                throw APIError.notFound(path: context.target.rawPath)
            }
            // The route is read in place, never copied.
            guard let endpoint = router.routes[index].endpoint(for: context.request.method) else {
                throw APIError.methodNotAllowed(method: context.request.method, allow: router.routes[index].allow)
            }
            return try endpoint(self, context)
        } catch {
            return .now(context.fail(error))
        }
    }

    /// The answer to a request the server refused before any handler saw it: the API's problem
    /// type, a new request id on it and in its access-log line.
    private func refused(_ refusal: ProblemDetails, _ environment: RequestEnvironment) -> HTTPResponse {
        var response = ErrorResponse.refusal(refusal)
        response.requestID = requestIDs.id(from: nil)
        accessLog.refused(refusal, requestID: response.requestID, environment)
        return response
    }

    /// Every route of the table, for tests that hold it against the OpenAPI document.
    var routes: [Route] { router.routes }
}
