import Foundation
import TestSupport
import Testing

private let secret = "an-example-secret-of-at-least-32-bytes"

@Suite("Moderation through the real binary: pre-moderation, a rater, a moderator and a replier, each refused what is not theirs",
       .serialized)
struct ModerationProgramTests {
    private func token(_ arguments: [String]) throws -> [String: String] {
        let result = try RatingsProcess.run(["token"] + arguments, environment: ["RATINGS_JWT_SECRET": secret])
        #expect(result.status == 0, "\(result.stderr)")
        return ["Authorization": "Bearer " + result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]
    }

    @Test("--review-moderation pre and --review-flag-threshold 2 with tokens from ratings token")
    func roles() throws {
        let directory = try TemporaryDirectory("ratings-moderation")
        defer { directory.remove() }
        let server = try RatingsServer(["--database", directory.file("db.sqlite"), "--review-moderation", "pre"],
                                       environment: ["RATINGS_JWT_SECRET": secret, "RATINGS_REVIEW_FLAG_THRESHOLD": "2"])
        defer { server.stop() }
        let (author, other, third) = (try token(["--subject", "u-1"]), try token(["--subject", "u-2"]), try token(["--subject", "u-3"]))
        let moderator = try token(["--subject", "mod-1", "--scope", "ratings:moderate"])
        let replier = try token(["--subject", "shop-7", "--scope", "ratings:reply"])
        let review = #"{"stars": 4, "body": "Fine soup."}"#

        // The rater writes; under pre-moderation the review waits, seen by its author and moderators only.
        let written = try server.request("PUT", "/v1/items/soup/reviews/u-1", json: review, headers: author)
        #expect(written.status == 201 && object(written)["status"] as? String == "pending")
        #expect(try server.request("GET", "/v1/items/soup/reviews/u-1", headers: other).status == 404)
        #expect(try server.request("GET", "/v1/items/soup/reviews/u-1", headers: author).status == 200)
        #expect(try server.request("GET", "/v1/items/soup/reviews/u-1", headers: moderator).status == 200)

        // Neither the rater nor the replier may moderate or read the queue.
        for (headers, who) in [(author, "the rater"), (replier, "the replier")] {
            let decided = try server.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published"}"#, headers: headers)
            #expect(decided.status == 403 && detail(decided).contains("ratings:moderate"), "\(who)")
            #expect(try server.request("GET", "/v1/moderation/queue", headers: headers).status == 403, "\(who)")
        }
        // Nor reply before publication, nor may the moderator reply or write for the rater.
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Thanks"}"#, headers: replier).status == 404)
        let moderatorReply = try server.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Thanks"}"#, headers: moderator)
        #expect(moderatorReply.status == 403 && detail(moderatorReply).contains("ratings:reply"))
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1", json: review, headers: moderator).status == 403)

        // The moderator sees it waiting and publishes it.
        let queue = try server.object("GET", "/v1/moderation/queue", headers: moderator)
        #expect((queue["reviews"] as? [[String: Any]])?.map { $0["raterId"] as? String } == ["u-1"])
        let published = try server.request("PUT", "/v1/items/soup/reviews/u-1/moderation", json: #"{"status": "published", "reason": "ok"}"#,
                                           headers: moderator)
        let entry = (object(published)["history"] as? [[String: Any]])?.last
        #expect(published.status == 200 && entry?["moderator"] as? String == "mod-1" && entry?["previous"] as? String == "pending")
        #expect(try server.object("GET", "/v1/items/soup")["reviewCount"] as? Int == 1)

        // The replier answers; the author cannot; raters flag as themselves only, never their own.
        let reply = try server.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Thanks"}"#, headers: replier)
        #expect(reply.status == 201 && (object(reply)["reply"] as? [String: Any])?["author"] as? String == "shop-7")
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Me"}"#, headers: author).status == 403)
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-1", json: #"{"reason": "spam"}"#, headers: author).status == 403)
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-3", json: #"{"reason": "spam"}"#, headers: other).status == 403)
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/flags/me", json: #"{"reason": "spam"}"#, headers: other).status == 201)
        #expect(try server.request("PUT", "/v1/items/soup/reviews/u-1/flags/u-3", json: #"{"reason": "fake"}"#, headers: third).status == 201)

        // Two flags reach the threshold of 2: pending again, automatically, counted in the gauge.
        #expect(try server.object("GET", "/v1/items/soup")["reviewCount"] as? Int == 0)
        let record = try server.object("GET", "/v1/items/soup/reviews/u-1/moderation", headers: moderator)
        let last = (record["history"] as? [[String: Any]])?.last
        #expect(record["status"] as? String == "pending" && last?["reason"] as? String == "flags" && last?["moderator"] is NSNull)
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains("ratings_moderation_queue 1\n") && metrics.contains("ratings_review_flags_total{reason=\"spam\"} 1\n"))
        #expect(metrics.contains("ratings_moderation_decisions_total{status=\"published\"} 1\n"))
    }
}
