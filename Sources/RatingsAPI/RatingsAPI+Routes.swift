/// The route table: every resource the API serves, declared once, with the endpoint of each
/// method. `Allow`, `HEAD`, the metrics label and the path parameters all come from here, and a
/// test holds this table against `openapi.yaml`.
extension RatingsAPI {
    static let routeTable: [Route] = [
        Route("/v1/items/{itemId}/ratings/{raterId}", ["GET": RatingsAPI.readRating, "PUT": RatingsAPI.submit, "DELETE": RatingsAPI.clear]),
        Route("/v1/items/{itemId}", ["GET": RatingsAPI.readSummary, "PUT": RatingsAPI.configure]),
        Route("/v1/items", ["GET": RatingsAPI.readSummaries]),
        Route("/v1/display", ["GET": RatingsAPI.display]),
        Route("/v1/raters/{raterId}/ratings", ["GET": RatingsAPI.listRatings]),
        Route("/v1/raters/{raterId}", ["DELETE": RatingsAPI.eraseRater]),
        Route("/v1/rankings/top", ["GET": RatingsAPI.topRanked]),
        Route("/healthz", ["GET": RatingsAPI.health]),
        Route("/readyz", ["GET": RatingsAPI.readiness]),
        Route("/metrics", ["GET": RatingsAPI.exposeMetrics]),
        Route("/openapi.yaml", ["GET": RatingsAPI.openAPI]),
    ]
}
