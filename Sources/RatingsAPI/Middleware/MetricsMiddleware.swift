import HTTP1

/// Counts every answered request by route pattern, method and status, with its duration.
struct MetricsMiddleware: Middleware {
    let metrics: APIMetrics
    let clock: any APIClock

    func handle(_ context: RequestContext, _ respond: @escaping HTTPHandler.Respond,
                next: (RequestContext, @escaping HTTPHandler.Respond) -> Void) {
        next(context) { [metrics, clock] response in
            metrics.record(route: context.routeIndex, method: context.request.method, status: response.status,
                           seconds: clock.monotonicSeconds() - context.started)
            respond(response)
        }
    }
}
