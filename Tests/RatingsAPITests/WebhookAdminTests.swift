import Foundation
import JWT
import RatingsCore
import TestSupport
import Testing

private struct FixedMonitor: WebhookMonitor {
    let endpoints: [WebhookEndpoint]
    let counts: [String: AttemptCounts]
    func attempts() -> [String: AttemptCounts] { counts }
}

private func endpoints() throws -> [WebhookEndpoint] {
    try WebhookConfiguration.endpoints(from: Array(#"""
        {"endpoints": [
          {"id": "crm", "url": "https://bot:s3cret@crm.example/hooks?k=1", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]},
          {"id": "search", "url": "http://search.internal/in", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["review.*"]}
        ]}
        """#.utf8))
}

@Suite("GET /v1/admin/webhooks and the webhook metrics")
struct WebhookAdminTests {
    @Test("each endpoint in force with its URL without credentials, its outbox rows and its latest error")
    func status() async throws {
        let store = InMemoryRatingStore()
        store.appendOutbox((1...3).map { OutboxEntry(eventID: "msg_\($0)", endpoint: "crm", type: .ratingCreated, payload: "{}", createdAtMilliseconds: 1) })
        let claimed = try await store.claimDeliveries(for: "crm", now: 10, limit: 3)
        try await store.finishDelivery(DeliveryResult(delivery: claimed[0].id, outcome: .delivered, status: 204, error: nil,
                                                      attemptedAtMilliseconds: 20, firstAttemptMilliseconds: 20))
        try await store.finishDelivery(DeliveryResult(delivery: claimed[1].id, outcome: .failed, status: 410, error: nil,
                                                      attemptedAtMilliseconds: 1_764_000_000_000, firstAttemptMilliseconds: 20))
        var counts = AttemptCounts()
        counts.delivered = 1
        counts.failed = 1
        let monitor = FixedMonitor(endpoints: try endpoints(), counts: ["crm": counts])
        try await withAPI(store: store, webhooks: monitor) { service in
            let answer = service.request("GET", "/v1/admin/webhooks")
            #expect(answer.status == 200)
            #expect(answer.text == #"{"endpoints":[{"id":"crm","url":"https://crm.example/hooks?k=1","pending":1,"delivered":1,"failed":1,"lastError":{"at":"2025-11-24T16:00:00.000Z","status":410}},{"id":"search","url":"http://search.internal/in","pending":0,"delivered":0,"failed":0,"lastError":null}]}"#)
            let metrics = service.request("GET", "/metrics").text
            #expect(metrics.contains("ratings_webhook_deliveries_total{endpoint=\"crm\",outcome=\"delivered\"} 1\n"))
            #expect(metrics.contains("ratings_webhook_deliveries_total{endpoint=\"search\",outcome=\"failed\"} 0\n"))
            #expect(metrics.contains("ratings_webhook_pending{endpoint=\"crm\"} 1\nratings_webhook_pending{endpoint=\"search\"} 0\n"))
        }
    }

    @Test("without webhooks: no endpoints and no webhook series; with tokens, only ratings:admin")
    func access() async throws {
        try await withAPI { service in
            #expect(service.request("GET", "/v1/admin/webhooks").text == #"{"endpoints":[]}"#)
            #expect(!service.request("GET", "/metrics").text.contains("ratings_webhook"))
        }
        let secret = "a-shared-secret-of-at-least-32-bytes!"
        let now = Int(ManualClock().wallMilliseconds() / 1000)
        try await withAPI(verifier: try JWTVerifier(secret: secret)) { service in
            let rater = service.request("GET", "/v1/admin/webhooks", headers: TestTokens.bearer("u-1", secret: secret, nowSeconds: now))
            #expect(rater.status == 403 && detail(rater).contains("ratings:admin"))
            let admin = service.request("GET", "/v1/admin/webhooks", headers: TestTokens.bearer("ops", scope: "ratings:admin", secret: secret, nowSeconds: now))
            #expect(admin.status == 200)
        }
    }
}
