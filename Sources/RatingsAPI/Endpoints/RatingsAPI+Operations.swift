import HTTP1
import RatingsCore

/// What operators and tools read: liveness, readiness, metrics and the OpenAPI document.
extension RatingsAPI {
    /// `200` while the process serves; it never touches the store.
    func health(_ context: RequestContext) throws {
        context.respond(Responses.json(200, Array(#"{"status":"ok"}"#.utf8)))
    }

    /// `200` when the store answers, `503` otherwise.
    func readiness(_ context: RequestContext) throws {
        let answer = context.reply { (ready: Bool) in
            guard ready else { throw APIError.notReady }
            return Responses.json(200, Array(#"{"status":"ready"}"#.utf8))
        }
        store.checkReady { result in answer(.success((try? result.get()) != nil)) }
    }

    func exposeMetrics(_ context: RequestContext) throws {
        context.respond(Responses.text(200, metrics.render(openConnections: configuration.openConnections()),
                                       contentType: "text/plain; version=0.0.4; charset=utf-8"))
    }

    func openAPI(_ context: RequestContext) throws {
        context.respond(Responses.text(200, configuration.openAPIDocument, contentType: "application/yaml"))
    }
}
