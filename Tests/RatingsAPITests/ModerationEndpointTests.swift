import Foundation
import JWT
import RatingsCore
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"
private let now = Int(ManualClock().wallMilliseconds() / 1000)

private func bearer(_ subject: String, scope: String? = nil) -> [String: String] {
    TestTokens.bearer(subject, scope: scope, secret: secret, nowSeconds: now)
}

@discardableResult
private func review(_ service: APIHarness, _ item: String, _ rater: String, body: String = "Good.", headers: [String: String] = [:])
    -> RawHTTPClient.Response {
    service.request("PUT", "/v1/items/\(item)/reviews/\(rater)", json: "{\"stars\": 4, \"body\": \"\(body)\"}", headers: headers)
}

@discardableResult
private func flag(_ service: APIHarness, _ item: String, _ author: String, by flagger: String, reason: String = "spam",
                  headers: [String: String] = [:]) -> RawHTTPClient.Response {
    service.request("PUT", "/v1/items/\(item)/reviews/\(author)/flags/\(flagger)", json: "{\"reason\": \"\(reason)\"}", headers: headers)
}

private func listedRaters(_ service: APIHarness, _ item: String) -> [String] {
    (object(service.request("GET", "/v1/items/\(item)/reviews"))["reviews"] as? [[String: Any]] ?? []).compactMap { $0["raterId"] as? String }
}

private func reviewCount(_ service: APIHarness, _ item: String) -> Int? {
    object(service.request("GET", "/v1/items/\(item)"))["reviewCount"] as? Int
}

@Suite("Flags, moderation decisions and the queue over HTTP")
struct ModerationEndpointTests {
    @Test("flags: 201, 200 on replacement, DELETE answers reason null; 422 for a bad reason or note; 403 on one's own; 404 without a review",
          arguments: TestEngine.all)
    func flags(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            review(service, "soup", "u-1")
            let first = flag(service, "soup", "u-1", by: "u-2")
            #expect(first.status == 201 && first.text == #"{"itemId":"soup","raterId":"u-1","flaggerId":"u-2","reason":"spam"}"#)
            let again = service.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-2", json: #"{"reason": "fake", "note": " Bought. "}"#)
            #expect(again.status == 200 && object(again)["reason"] as? String == "fake")
            let withdrawn = service.request("DELETE", "/v1/items/soup/reviews/u-1/flags/u-2")
            #expect(withdrawn.status == 200 && withdrawn.text == #"{"itemId":"soup","raterId":"u-1","flaggerId":"u-2","reason":null}"#)
            #expect(service.request("DELETE", "/v1/items/soup/reviews/u-1/flags/u-2").status == 200)

            let unknown = flag(service, "soup", "u-1", by: "u-2", reason: "rude")
            #expect(unknown.status == 422 && detail(unknown).contains("spam, offensive, off-topic, personal-information, fake, other"))
            let missing = service.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-2", json: #"{"note": "x"}"#)
            #expect(missing.status == 422 && detail(missing).contains("reason"))
            let long = service.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-2",
                                       json: "{\"reason\": \"other\", \"note\": \"\(String(repeating: "é", count: 501))\"}")
            #expect(long.status == 422 && detail(long).contains("500") && detail(long).contains("501"))
            let control = service.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-2", json: #"{"reason": "other", "note": "a\u0007"}"#)
            #expect(control.status == 422 && detail(control).contains("position 2"))
            let own = flag(service, "soup", "u-1", by: "u-1")
            #expect(own.status == 403 && detail(own).contains("flag"))
            #expect(flag(service, "soup", "nobody", by: "u-2").status == 404)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/flags/bad%20id", json: #"{"reason": "spam"}"#).status == 400)
            #expect(service.request("POST", "/v1/items/soup/reviews/u-1/flags/u-2").header("allow") == "PUT, DELETE")
        }
    }

    @Test("the threshold: the third distinct flagger hides the review from lists and reviewCount, not from the summary's stars")
    func threshold() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            review(service, "soup", "u-1")
            review(service, "soup", "u-2")
            flag(service, "soup", "u-1", by: "f-1")
            flag(service, "soup", "u-1", by: "f-1", reason: "fake")
            flag(service, "soup", "u-1", by: "f-2")
            #expect(listedRaters(service, "soup").sorted() == ["u-1", "u-2"])
            #expect(flag(service, "soup", "u-1", by: "f-3", reason: "offensive").status == 201)
            #expect(listedRaters(service, "soup") == ["u-2"])
            let summary = object(service.request("GET", "/v1/items/soup"))
            #expect(summary["reviewCount"] as? Int == 1 && summary["count"] as? Int == 2)
            #expect(object(service.request("GET", "/v1/items/soup/reviews/u-1"))["status"] as? String == "pending")
            let record = object(service.request("GET", "/v1/items/soup/reviews/u-1/moderation"))
            #expect(record["status"] as? String == "pending")
            #expect((record["flags"] as? [String: Int]) == ["spam": 1, "offensive": 1, "off-topic": 0, "personal-information": 0, "fake": 1, "other": 0])
            let history = record["history"] as? [[String: Any]]
            #expect(history?.count == 1 && history?.first?["reason"] as? String == "flags" && history?.first?["moderator"] is NSNull)
            #expect(history?.first?["previous"] as? String == "published" && history?.first?["status"] as? String == "pending")
        }
    }

    @Test("decisions: 200 with status, flags and history; 422 for pending or a missing status; 404 without a review; GET with an ETag",
          arguments: TestEngine.all)
    func decisions(engine: TestEngine) async throws {
        try await withAPI(engine, moderation: ModerationPolicy(mode: .post, flagThreshold: 1)) { service in
            review(service, "soup", "u-1")
            flag(service, "soup", "u-1", by: "u-2")
            #expect(reviewCount(service, "soup") == 0)
            let decided = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published", "reason": " Fine. "}"#)
            #expect(decided.status == 200)
            let record = object(decided)
            let last = (record["history"] as? [[String: Any]])?.last
            #expect(record["status"] as? String == "published" && last?["reason"] as? String == "Fine." && last?["moderator"] is NSNull)
            #expect(last?["previous"] as? String == "pending" && (last?["at"] as? String)?.hasSuffix("Z") == true)
            #expect(reviewCount(service, "soup") == 1 && listedRaters(service, "soup") == ["u-1"])

            let read = service.request("GET", "/v1/items/soup/reviews/u-1/moderation")
            #expect(read.status == 200 && read.body == decided.body)
            let etag = read.header("etag") ?? ""
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1/moderation", headers: ["If-None-Match": etag]).status == 304)
            #expect(service.request("HEAD", "/v1/items/soup/reviews/u-1/moderation").header("etag") == etag)

            let pending = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "pending"}"#)
            #expect(pending.status == 422 && detail(pending).contains("published or rejected"))
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"reason": "x"}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"[1]"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/nobody/moderation", json: #"{"status": "rejected"}"#).status == 404)
            #expect(service.request("GET", "/v1/items/soup/reviews/nobody/moderation").status == 404)
            #expect(service.request("DELETE", "/v1/items/soup/reviews/u-1/moderation").header("allow") == "GET, HEAD, PUT")
        }
    }

    @Test("pre-moderation: a new review answers pending, is not listed, and waits in the queue until published", arguments: TestEngine.all)
    func preModeration(engine: TestEngine) async throws {
        try await withAPI(engine, moderation: ModerationPolicy(mode: .pre, flagThreshold: 3)) { service in
            let written = review(service, "soup", "u-1")
            #expect(written.status == 201 && object(written)["status"] as? String == "pending")
            #expect(((object(written)["summary"] as? [String: Any])?["reviewCount"]) as? Int == 0)
            #expect(listedRaters(service, "soup").isEmpty)
            // Votes and replies wait for publication, as flags do.
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/votes/u-2", json: #"{"helpful": true}"#).status == 404)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Hi"}"#).status == 404)
            let queue = object(service.request("GET", "/v1/moderation/queue"))
            let entry = (queue["reviews"] as? [[String: Any]])?.first
            #expect(entry?["raterId"] as? String == "u-1" && entry?["status"] as? String == "pending" && queue["nextCursor"] is NSNull)
            #expect((entry?["flags"] as? [String: Int])?["spam"] == 0 && entry?["display"] != nil)
            _ = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published"}"#)
            #expect(listedRaters(service, "soup") == ["u-1"])
            #expect((object(service.request("GET", "/v1/moderation/queue"))["reviews"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("the queue in pages: limit, nextCursor, a foreign cursor 400")
    func queuePages() async throws {
        try await withAPI(.sqlite, moderation: ModerationPolicy(mode: .pre, flagThreshold: 3)) { service in
            for index in 0..<7 {
                review(service, "item-\(index % 3)", "u-\(index)")
                service.clock.advance(seconds: 1)
            }
            var seen: [String] = [], cursor: String?
            repeat {
                let page = object(service.request("GET", "/v1/moderation/queue?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")))
                seen += (page["reviews"] as? [[String: Any]] ?? []).compactMap { $0["raterId"] as? String }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            #expect(seen == (0..<7).map { "u-\($0)" })
            let raterCursor = object(service.request("GET", "/v1/raters/u-1/reviews?limit=1"))["nextCursor"] as? String
            #expect(raterCursor == nil || service.request("GET", "/v1/moderation/queue?cursor=\(raterCursor ?? "")").status == 400)
            #expect(service.request("GET", "/v1/moderation/queue?cursor=AAAA").status == 400)
            #expect(service.request("GET", "/v1/moderation/queue?limit=0").status == 400)
        }
    }

    @Test("tokens: flaggers act as themselves; moderation needs ratings:moderate or ratings:admin; an unpublished review is 404 to others")
    func tokens() async throws {
        try await withAPI(.sqlite, verifier: try JWTVerifier(secret: secret), moderation: ModerationPolicy(mode: .post, flagThreshold: 1)) { service in
            #expect(review(service, "soup", "u-1", headers: bearer("u-1")).status == 201)
            let impostor = flag(service, "soup", "u-1", by: "u-3", headers: bearer("u-2"))
            #expect(impostor.status == 403)
            #expect(flag(service, "soup", "u-1", by: "me", headers: bearer("u-2")).status == 201)
            // Pending now: hidden from everyone but the author and moderators.
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1", headers: bearer("u-2")).status == 404)
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1").status == 404)
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1", headers: bearer("u-1")).status == 200)
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1", headers: bearer("mod", scope: "ratings:moderate")).status == 200)
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1", headers: bearer("shop", scope: "ratings:reply")).status == 404)

            for (headers, what) in [(bearer("u-1"), "the author"), (bearer("shop", scope: "ratings:reply"), "a replier")] {
                let refused = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published"}"#, headers: headers)
                #expect(refused.status == 403 && detail(refused).contains("ratings:moderate"), "\(what)")
                #expect(service.request("GET", "/v1/moderation/queue", headers: headers).status == 403, "\(what)")
                #expect(service.request("GET", "/v1/items/soup/reviews/u-1/moderation", headers: headers).status == 403, "\(what)")
            }
            #expect(service.request("GET", "/v1/moderation/queue").status == 401)
            let moderator = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "rejected"}"#,
                                            headers: bearer("mod", scope: "ratings:moderate"))
            #expect(moderator.status == 200 && (object(moderator)["history"] as? [[String: Any]])?.last?["moderator"] as? String == "mod")
            let admin = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published"}"#,
                                        headers: bearer("ops", scope: "ratings:admin"))
            #expect(admin.status == 200 && (object(admin)["history"] as? [[String: Any]])?.last?["moderator"] as? String == "ops")
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1", headers: bearer("u-2")).status == 200)
            // A moderator does not flag or write for others.
            #expect(flag(service, "soup", "u-1", by: "u-9", headers: bearer("mod", scope: "ratings:moderate")).status == 403)
        }
    }

    @Test("metrics: flags by reason, decisions by status, and the queue's gauge over the store")
    func metrics() async throws {
        try await withAPI(.sqlite, moderation: ModerationPolicy(mode: .pre, flagThreshold: 3)) { service in
            review(service, "soup", "u-1")
            review(service, "soup", "u-2")
            _ = service.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published"}"#)
            flag(service, "soup", "u-1", by: "u-3", reason: "off-topic")
            flag(service, "soup", "u-1", by: "u-3", reason: "off-topic")
            _ = service.request("DELETE", "/v1/items/soup/reviews/u-1/flags/u-3")
            let text = service.request("GET", "/metrics").text
            #expect(text.contains("ratings_review_flags_total{reason=\"off-topic\"} 2\n"))
            #expect(text.contains("ratings_review_flags_total{reason=\"spam\"} 0\n"))
            #expect(text.contains("ratings_moderation_decisions_total{status=\"published\"} 1\n"))
            #expect(text.contains("ratings_moderation_decisions_total{status=\"rejected\"} 0\n"))
            #expect(text.contains("# TYPE ratings_moderation_queue gauge\nratings_moderation_queue 1\n"))
        }
    }
}
