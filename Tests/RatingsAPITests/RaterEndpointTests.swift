import Foundation
import JWT
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"
private let now = Int(ManualClock().wallMilliseconds() / 1000)

private func bearer(_ subject: String, scope: String? = nil) -> [String: String] {
    TestTokens.bearer(subject, scope: scope, secret: secret, nowSeconds: now)
}

private func put(_ service: APIHarness, _ item: String, _ rater: String, _ stars: Int, headers: [String: String] = [:]) {
    _ = service.request("PUT", "/v1/items/\(item)/ratings/\(rater)", json: "{\"stars\": \(stars)}", headers: headers)
}

@Suite("The rater's side: myStars on batches, a rater's ratings, erasure")
struct RaterEndpointTests {
    @Test("a batch naming a rater carries myStars for each item, null where none; without rater no myStars at all", arguments: TestEngine.all)
    func myStars(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            put(service, "a", "u-17", 4)
            put(service, "b", "someone", 2)
            let response = service.request("GET", "/v1/items?ids=a,b,c&rater=u-17")
            #expect(response.status == 200)
            let items = try #require(object(response)["items"] as? [[String: Any]])
            #expect(items.map { $0["myStars"] as? Int } == [4, nil, nil])
            #expect(items.allSatisfy { $0.keys.contains("myStars") } && items[1]["myStars"] is NSNull)
            #expect(response.text.contains(#""halfStarFillsFrom":"left"},"myStars":4}"#), "myStars follows the Summary's fields")
            let plain = object(service.request("GET", "/v1/items?ids=a"))["items"] as? [[String: Any]]
            #expect(plain?.first?.keys.contains("myStars") == false)
            #expect(service.request("GET", "/v1/items?ids=a&rater=u-17&rater=u-18").status == 400)
            #expect(service.request("GET", "/v1/items?ids=a&rater=bad%20id").status == 400)
        }
    }

    @Test("with tokens, rater must be the caller (me works), 403 for another, 401 without a token", arguments: TestEngine.all)
    func batchAccess(engine: TestEngine) async throws {
        try await withAPI(engine, verifier: try JWTVerifier(secret: secret)) { service in
            put(service, "a", "u-17", 3, headers: bearer("u-17"))
            let me = service.request("GET", "/v1/items?ids=a&rater=me", headers: bearer("u-17"))
            #expect(me.status == 200 && (object(me)["items"] as? [[String: Any]])?.first?["myStars"] as? Int == 3)
            #expect(service.request("GET", "/v1/items?ids=a&rater=u-17", headers: bearer("u-99")).status == 403)
            #expect(service.request("GET", "/v1/items?ids=a&rater=u-17", headers: bearer("ops", scope: "ratings:admin")).status == 403)
            #expect(service.request("GET", "/v1/items?ids=a&rater=u-17").status == 401)
            #expect(service.request("GET", "/v1/items?ids=a").status == 200, "a batch without rater stays public")
        }
    }

    @Test("a rater's ratings: newest first, cursor pages that reach every rating once, ETag and 304", arguments: TestEngine.all)
    func listing(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            for item in 0..<12 {
                put(service, "item-\(item)", "u-17", item % 5 + 1)
                service.clock.advance(seconds: 1)
            }
            var seen: [String] = [], cursor: String?
            repeat {
                let path = "/v1/raters/u-17/ratings?limit=5" + (cursor.map { "&cursor=\($0)" } ?? "")
                let response = service.request("GET", path, headers: ["Accept-Language": "es"])
                #expect(response.status == 200 && response.header("content-language") == "es")
                let body = object(response)
                let ratings = try #require(body["ratings"] as? [[String: Any]])
                #expect(ratings.allSatisfy { $0["summary"] == nil && $0["raterId"] as? String == "u-17" })
                seen += ratings.compactMap { $0["itemId"] as? String }
                cursor = body["nextCursor"] as? String
                #expect(cursor != nil || body["nextCursor"] is NSNull)
            } while cursor != nil
            #expect(seen == (0..<12).reversed().map { "item-\($0)" })
            let first = service.request("GET", "/v1/raters/u-17/ratings")
            let etag = try #require(first.header("etag"))
            #expect(service.request("GET", "/v1/raters/u-17/ratings", headers: ["If-None-Match": etag]).status == 304)
            #expect(service.request("HEAD", "/v1/raters/u-17/ratings").status == 200)
            let empty = service.request("GET", "/v1/raters/nobody/ratings")
            #expect(empty.text == #"{"ratings":[],"nextCursor":null}"#)
        }
    }

    @Test("a cursor the server did not issue, or issued for another rater, is 400; limit is 1 to 100", arguments: TestEngine.all)
    func badCursorsAndLimits(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            for item in 0..<3 { put(service, "item-\(item)", "u-17", 3); put(service, "item-\(item)", "u-18", 3) }
            let page = object(service.request("GET", "/v1/raters/u-17/ratings?limit=1"))
            let cursor = try #require(page["nextCursor"] as? String)
            #expect(service.request("GET", "/v1/raters/u-17/ratings?cursor=\(cursor)").status == 200)
            var tampered = Array(cursor)
            tampered[tampered.count / 2] = tampered[tampered.count / 2] == "A" ? "B" : "A"
            for bad in [String(tampered), "not-a-cursor", "", "AAAA", cursor + "A"] {
                let response = service.request("GET", "/v1/raters/u-17/ratings?cursor=\(bad)")
                #expect(response.status == 400 && detail(response).contains("cursor was not issued by this server"), "\(bad)")
            }
            #expect(service.request("GET", "/v1/raters/u-18/ratings?cursor=\(cursor)").status == 400, "bound to its rater")
            #expect(service.request("GET", "/v1/rankings/top?cursor=\(cursor)").status == 400, "and to its kind of listing")
            for limit in ["0", "101", "-1", "abc", "1.0", ""] {
                #expect(service.request("GET", "/v1/raters/u-17/ratings?limit=\(limit)").status == 400, "limit=\(limit)")
            }
            #expect((object(service.request("GET", "/v1/raters/u-17/ratings?limit=100"))["ratings"] as? [Any])?.count == 3)
            #expect(service.request("GET", "/v1/raters/u-17/ratings?limit=1&limit=2").status == 400)
        }
    }

    @Test("erasure: every rating gone, summaries updated, the cleared counter moves by N; a second call clears 0", arguments: TestEngine.all)
    func erasure(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            for item in 0..<12 { put(service, "item-\(item)", "u-17", 5) }
            put(service, "item-0", "u-18", 1)
            let first = service.request("DELETE", "/v1/raters/u-17")
            #expect(first.status == 200 && first.text == #"{"raterId":"u-17","cleared":12,"reviews":0,"votes":0,"flags":0}"#)
            #expect(service.request("DELETE", "/v1/raters/u-17").text == #"{"raterId":"u-17","cleared":0,"reviews":0,"votes":0,"flags":0}"#)
            #expect(object(service.request("GET", "/v1/items/item-0"))["count"] as? Int == 1)
            #expect(object(service.request("GET", "/v1/items/item-5"))["count"] as? Int == 0)
            #expect(service.request("GET", "/v1/items/item-0/ratings/u-17").status == 404)
            #expect(service.request("GET", "/v1/raters/u-17/ratings").text == #"{"ratings":[],"nextCursor":null}"#)
            #expect(service.request("GET", "/metrics").text.contains("ratings_ratings_cleared_total 12"))
            #expect(service.request("GET", "/v1/raters/u-17").status == 405)
            #expect(service.request("GET", "/v1/raters/u-17").header("allow") == "DELETE")
        }
    }

    @Test("with tokens, listing and erasure are the rater's own or an admin's", arguments: TestEngine.all)
    func accountAccess(engine: TestEngine) async throws {
        try await withAPI(engine, verifier: try JWTVerifier(secret: secret)) { service in
            put(service, "a", "u-17", 4, headers: bearer("u-17"))
            #expect(service.request("GET", "/v1/raters/u-17/ratings").status == 401)
            #expect(service.request("GET", "/v1/raters/u-17/ratings", headers: bearer("u-99")).status == 403)
            #expect(service.request("GET", "/v1/raters/me/ratings", headers: bearer("u-17")).status == 200)
            #expect(service.request("GET", "/v1/raters/u-17/ratings", headers: bearer("ops", scope: "ratings:admin")).status == 200)
            #expect(service.request("DELETE", "/v1/raters/u-17", headers: bearer("u-99")).status == 403)
            #expect(service.request("DELETE", "/v1/raters/u-17").status == 401)
            let erased = service.request("DELETE", "/v1/raters/me", headers: bearer("u-17"))
            #expect(erased.status == 200 && erased.text == #"{"raterId":"u-17","cleared":1,"reviews":0,"votes":0,"flags":0}"#)
            #expect(service.request("DELETE", "/v1/raters/u-17", headers: bearer("ops", scope: "ratings:admin")).status == 200)
        }
    }
}
