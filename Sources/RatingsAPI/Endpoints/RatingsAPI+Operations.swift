import HTTP1
import RatingsCore

/// What operators and tools read: liveness, readiness, metrics and the OpenAPI document.
extension RatingsAPI {
    /// `200` while the process serves; it never touches the store.
    func health(_ context: RequestContext) throws -> Reply {
        .now(Responses.json(200, Array(#"{"status":"ok"}"#.utf8)))
    }

    /// `200` when the store answers, `503` otherwise (whatever its failure, which is not logged:
    /// a probe asks every few seconds).
    func readiness(_ context: RequestContext) throws -> Reply {
        context.store({ [store] completion in store.checkReady { result in completion(.success((try? result.get()) != nil)) } }) { (ready: Bool) in
            guard ready else { throw APIError.notReady }
            return Responses.json(200, Array(#"{"status":"ready"}"#.utf8))
        }
    }

    /// The exposition. The gauges of the moderation queue and of pending webhook deliveries are
    /// counted by the store at each scrape, so they hold every replica's rows, and are left out
    /// when the store does not answer (the rest is this process's own and always answers).
    func exposeMetrics(_ context: RequestContext) throws -> Reply {
        let openConnections = configuration.openConnections()
        let webhooks = configuration.webhooks
        return context.store({ [store] (completion: @escaping StoreCompletion<StoreGauges>) in
            store.pendingReviewCount { reviews in
                guard webhooks != nil else { return completion(.success(StoreGauges(pendingReviews: try? reviews.get(), pendingDeliveries: nil))) }
                store.pendingDeliveries { deliveries in
                    completion(.success(StoreGauges(pendingReviews: try? reviews.get(), pendingDeliveries: try? deliveries.get())))
                }
            }
        }) { [metrics] gauges in
            let webhookLines = webhooks.map { APIMetrics.webhookLines($0, pending: gauges.pendingDeliveries) } ?? ""
            return Responses.text(200, metrics.render(openConnections: openConnections, pendingReviews: gauges.pendingReviews) + webhookLines,
                                  contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// What the store counts for the metrics; nil where it did not answer.
    private struct StoreGauges: Sendable {
        let pendingReviews: Int?
        let pendingDeliveries: [String: Int]?
    }

    /// `GET /v1/admin/webhooks`: each endpoint in force, its URL without credentials, its rows in
    /// the outbox and its latest failed attempt. Needs `ratings:admin`.
    func webhookStatus(_ context: RequestContext) throws -> Reply {
        try services.access.requireAdmin(context.identity(), operation: "Reading the webhooks' status")
        let endpoints = configuration.webhooks?.endpoints ?? []
        return context.store({ [store] in store.deliveryTotals(completion: $0) }) { totals in
            Responses.json(200) { WireFormat.webhookStatus(endpoints, totals: totals, into: &$0) }
        }
    }

    func openAPI(_ context: RequestContext) throws -> Reply {
        .now(Responses.text(200, configuration.openAPIDocument, contentType: "application/yaml"))
    }
}
