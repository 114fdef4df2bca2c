/// The route table: every resource the API serves, declared once, with the endpoint of each
/// method. `Allow`, `HEAD`, the metrics label and the path parameters all come from here, and a
/// test holds this table against `openapi.yaml`. (Endpoints are closures handed straight to
/// their method's `MethodEndpoint` builder, so calling one needs no reabstraction thunk.)
extension RatingsAPI {
    static let routeTable: [Route] = [
        Route("/v1/items/{itemId}/ratings/{raterId}",
            .get { try $0.readRating($1) },
            .put { try $0.submit($1) },
            .delete { try $0.clear($1) }
        ),
        Route("/v1/items/{itemId}",
            .get { try $0.readSummary($1) },
            .put { try $0.configure($1) }
        ),
        Route("/v1/items/{itemId}/reviews/{raterId}",
            .get { try $0.readReview($1) },
            .put { try $0.writeReview($1) },
            .delete { try $0.removeReview($1) }
        ),
        Route("/v1/items/{itemId}/reviews/{raterId}/reply",
            .put { try $0.reply($1, removing: false) },
            .delete { try $0.reply($1, removing: true) }
        ),
        Route("/v1/items/{itemId}/reviews/{raterId}/votes/{voterId}",
            .put { try $0.vote($1, withdrawing: false) },
            .delete { try $0.vote($1, withdrawing: true) }
        ),
        Route("/v1/items/{itemId}/reviews/{raterId}/flags/{flaggerId}",
            .put { try $0.flag($1, withdrawing: false) },
            .delete { try $0.flag($1, withdrawing: true) }
        ),
        Route("/v1/items/{itemId}/reviews/{raterId}/moderation",
            .get { try $0.readModeration($1) },
            .put { try $0.moderate($1) }
        ),
        Route("/v1/items/{itemId}/reviews", .get { try $0.listReviews($1) }),
        Route("/v1/moderation/queue", .get { try $0.moderationQueue($1) }),
        Route("/v1/items", .get { try $0.readSummaries($1) }),
        Route("/v1/display", .get { try $0.display($1) }),
        Route("/v1/raters/{raterId}/ratings", .get { try $0.listRatings($1) }),
        Route("/v1/raters/{raterId}/reviews", .get { try $0.listRaterReviews($1) }),
        Route("/v1/raters/{raterId}", .delete { try $0.eraseRater($1) }),
        Route("/v1/rankings/top", .get { try $0.topRanked($1) }),
        Route("/v1/admin/webhooks", .get { try $0.webhookStatus($1) }),
        Route("/healthz", .get { try $0.health($1) }),
        Route("/readyz", .get { try $0.readiness($1) }),
        Route("/metrics", .get { try $0.exposeMetrics($1) }),
        Route("/openapi.yaml", .get { try $0.openAPI($1) }),
    ]

    /// Every route's pattern, for a 404's detail: the table's, so it cannot leave one out.
    static let servedPaths = routeTable.map(\.pattern.description).joined(separator: ", ")
}
