import HTTP1

/// Counts every answered request by route pattern, method and status, with its duration.
final class MetricsMiddleware: Middleware {
    let metrics: APIMetrics

    init(metrics: APIMetrics) { self.metrics = metrics }

    func handle(_ context: RequestContext, next: (RequestContext) -> Reply) -> Reply {
        next(context).map { [metrics] response in
            metrics.record(route: context.routeIndex, method: context.request.method, status: response.status,
                           seconds: context.elapsedSeconds())
            return response
        }
    }
}
