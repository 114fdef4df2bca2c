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

    /// The exposition; the moderation queue's gauge is counted by the store at each scrape, so it
    /// holds every process's reviews, and is left out when the store does not answer (the rest
    /// is this process's own and always answers).
    func exposeMetrics(_ context: RequestContext) throws -> Reply {
        let openConnections = configuration.openConnections()
        return context.store({ [store] completion in
            store.pendingReviewCount { result in completion(.success(try? result.get())) }
        }) { [metrics] (pending: Int?) in
            Responses.text(200, metrics.render(openConnections: openConnections, pendingReviews: pending),
                           contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    func openAPI(_ context: RequestContext) throws -> Reply {
        .now(Responses.text(200, configuration.openAPIDocument, contentType: "application/yaml"))
    }
}
