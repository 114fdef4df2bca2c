import HTTP1

/// Counts every answered request by route pattern, method and status, with its duration.
final class MetricsMiddleware: OutboundMiddleware {
    let metrics: APIMetrics

    init(metrics: APIMetrics) { self.metrics = metrics }

    func outbound(_ response: consuming HTTPResponse, _ context: RequestContext) -> HTTPResponse {
        metrics.record(route: context.routeIndex, method: context.request.method, status: response.status,
                       seconds: context.elapsedSeconds())
        return response
    }
}
