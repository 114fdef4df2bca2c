import HTTP1

/// Counts every answered request by route pattern, method and status, with its duration.
struct MetricsMiddleware: Middleware {
    let metrics: APIMetrics

    func response(_ context: RequestContext, _ response: inout HTTPResponse) {
        metrics.record(route: context.routeIndex, method: context.request.method, status: response.status,
                       seconds: context.seconds)
    }
}
