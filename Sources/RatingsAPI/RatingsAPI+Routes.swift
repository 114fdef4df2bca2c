/// The route table: every resource the API serves, declared once, with the endpoint of each
/// method. `Allow`, `HEAD`, the metrics label and the path parameters all come from here, and a
/// test holds this table against `openapi.yaml`. (Endpoints are closures rather than method
/// references, so calling one allocates nothing.)
extension RatingsAPI {
    static let routeTable: [Route] = [
        Route("/v1/items/{itemId}/ratings/{raterId}", [
            "GET": { try $0.readRating($1, $2) },
            "PUT": { try $0.submit($1, $2) },
            "DELETE": { try $0.clear($1, $2) },
        ]),
        Route("/v1/items/{itemId}", [
            "GET": { try $0.readSummary($1, $2) },
            "PUT": { try $0.configure($1, $2) },
        ]),
        Route("/v1/items", ["GET": { try $0.readSummaries($1, $2) }]),
        Route("/v1/display", ["GET": { try $0.display($1, $2) }]),
        Route("/v1/raters/{raterId}/ratings", ["GET": { try $0.listRatings($1, $2) }]),
        Route("/v1/raters/{raterId}", ["DELETE": { try $0.eraseRater($1, $2) }]),
        Route("/v1/rankings/top", ["GET": { try $0.topRanked($1, $2) }]),
        Route("/healthz", ["GET": { try $0.health($1, $2) }]),
        Route("/readyz", ["GET": { try $0.readiness($1, $2) }]),
        Route("/metrics", ["GET": { try $0.exposeMetrics($1, $2) }]),
        Route("/openapi.yaml", ["GET": { try $0.openAPI($1, $2) }]),
    ]
}
