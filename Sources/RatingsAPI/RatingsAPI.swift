public import HTTP1
public import RatingsCore

/// The ratings API v1. A request turns through one path: the route table finds its route and
/// path parameters, the middleware (request id, access log, metrics, conditional GET) wraps
/// it, and the route's endpoint answers it through the store; every error becomes problem+json
/// in one place (`ErrorResponse`). It sees storage only through `RatingStore` and the server
/// only through `HTTPHandler`.
public final class RatingsAPI: Sendable {
    let store: any RatingStore
    let configuration: APIConfiguration
    let services: APIServices
    let metrics: APIMetrics
    /// Hot items' summaries, rendered once per language and reused while they stay the same.
    let renderings = SummaryRenderings(capacity: 4_096)
    /// Displays asked for before, rendered once per value, scale and language.
    let displayRenderings = DisplayRenderings(capacity: 1_024)
    let router = Router(routes: RatingsAPI.routeTable)
    private let middleware: MiddlewareChain

    public init(store: any RatingStore, configuration: APIConfiguration) {
        self.store = store
        self.configuration = configuration
        services = APIServices(configuration)
        metrics = APIMetrics(routePatterns: router.routes.map(\.pattern.description))
        middleware = MiddlewareChain(requestID: RequestIDMiddleware(),
                                     accessLog: AccessLogMiddleware(format: configuration.logFormat, clock: configuration.clock),
                                     metrics: MetricsMiddleware(metrics: metrics),
                                     conditionalGET: ConditionalGETMiddleware())
    }

    /// This API as the server's handler.
    public var handler: HTTPHandler {
        HTTPHandler(handle: { [self] request, environment, respond in handle(request, environment, respond: respond) },
                    refused: { [middleware] refusal, environment in middleware.refused(refusal, environment) })
    }

    /// Answers one request through `respond`: at once when nothing has to wait, else later on
    /// the request's loop.
    public func handle(_ request: consuming HTTPRequest, _ environment: RequestEnvironment, respond: @escaping HTTPHandler.Respond) {
        let target = RequestTarget(request.target)
        // A path whose escapes do not decode matches no route; `dispatch` says why.
        let routeIndex = target.pathDecodes ? router.match(target) : nil
        let context = RequestContext(
            request: request, target: target, environment: environment,
            route: routeIndex.map { (index: $0, pattern: router.routes[$0].pattern) },
            requestID: "", started: configuration.clock.monotonicSeconds(), services: services,
            middleware: middleware, deliver: respond)
        do {
            try middleware.request(context)
        } catch {
            return context.respond(context.fail(error))
        }
        dispatch(context)
    }

    /// The innermost step: the route's endpoint for the method, or the 400, 404 or 405 that
    /// says why there is none.
    private func dispatch(_ context: RequestContext) {
        do {
            guard let index = context.routeIndex else {
                guard context.target.pathDecodes else {
                    throw APIError.invalidQuery("The path has a malformed percent-escape or is not UTF-8; encode each byte as %XX.")
                }
                throw APIError.notFound(path: context.target.rawPath)
            }
            // Read in place: a copy of the route retained its pattern, endpoints and names.
            guard let endpoint = router.routes[index].endpoint(for: context.request.method) else {
                throw APIError.methodNotAllowed(method: context.request.method, allow: router.routes[index].allow)
            }
            try endpoint(self, context)
        } catch {
            context.respond(context.fail(error))
        }
    }

    /// Every route of the table, for tests that hold it against the OpenAPI document.
    var routes: [Route] { router.routes }
}
