import Foundation
import JWT
import TestSupport
import Testing

private let secret = "a-shared-secret-of-at-least-32-bytes!"
private let now = Int(ManualClock().wallMilliseconds() / 1000)

private func bearer(_ subject: String, scope: String? = nil) -> [String: String] {
    TestTokens.bearer(subject, scope: scope, secret: secret, nowSeconds: now)
}

/// A JSON string literal of `text` (quotes and backslashes escaped; control characters as \u escapes).
private func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): out += String(format: "\\u%04x", scalar.value)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

@discardableResult
private func review(_ service: APIHarness, _ item: String, _ rater: String, _ stars: Int, body: String = "Good.", title: String? = nil,
                    language: String? = nil, headers: [String: String] = [:]) -> RawHTTPClient.Response {
    let members = ["\"stars\": \(stars)", "\"body\": \(quoted(body))"] + (title.map { ["\"title\": \(quoted($0))"] } ?? [])
        + (language.map { ["\"language\": \(quoted($0))"] } ?? [])
    return service.request("PUT", "/v1/items/\(item)/reviews/\(rater)", json: "{" + members.joined(separator: ", ") + "}", headers: headers)
}

private func detail(_ response: RawHTTPClient.Response) -> String { object(response)["detail"] as? String ?? "" }

@Suite("Reviews over HTTP: writing, reading, removing, lists, votes, the rater's side")
struct ReviewEndpointTests {
    @Test("PUT a review: 201 even over a rating, 200 on replacement, the Review with the Summary; GET and DELETE", arguments: TestEngine.all)
    func lifecycle(engine: TestEngine) async throws {
        try await withAPI(engine, over: .socket) { service in
            _ = service.request("PUT", "/v1/items/soup-7/ratings/u-17", json: #"{"stars": 2}"#)
            let first = review(service, "soup-7", "u-17", 4, body: "  The broth…\r\nis deep.  ", title: "Best soup in town", language: "EN-gb")
            #expect(first.status == 201, "\(first.text)")
            let written = object(first)
            #expect(written["stars"] as? Int == 4 && written["body"] as? String == "The broth…\nis deep." && written["language"] as? String == "en-GB")
            #expect(written["status"] as? String == "published" && written["reply"] is NSNull)
            #expect((written["helpful"] as? [String: Int]) == ["up": 0, "down": 0])
            let summary = try #require(written["summary"] as? [String: Any])
            #expect(summary["count"] as? Int == 1 && summary["reviewCount"] as? Int == 1 && summary["average"] as? Double == 4)
            #expect((written["display"] as? [String: Any])?["accessibilityValue"] as? String == "4 out of 5 stars")
            service.clock.advance(seconds: 5)
            let second = review(service, "soup-7", "u-17", 5, body: "Even better.")
            #expect(second.status == 200 && object(second)["createdAt"] as? String == written["createdAt"] as? String)
            #expect(object(second)["updatedAt"] as? String != written["updatedAt"] as? String && object(second)["title"] is NSNull)
            let read = service.request("GET", "/v1/items/soup-7/reviews/u-17")
            #expect(read.status == 200 && object(read)["body"] as? String == "Even better." && read.header("etag") != nil)
            #expect(service.request("GET", "/v1/items/soup-7/reviews/u-17", headers: ["If-None-Match": read.header("etag") ?? ""]).status == 304)
            #expect(service.request("HEAD", "/v1/items/soup-7/reviews/u-17").status == 200)
            // Stars alone through the rating route keep the text.
            _ = service.request("PUT", "/v1/items/soup-7/ratings/u-17", json: #"{"stars": 3}"#)
            let restarred = object(service.request("GET", "/v1/items/soup-7/reviews/u-17"))
            #expect(restarred["stars"] as? Int == 3 && restarred["body"] as? String == "Even better.")
            let removed = service.request("DELETE", "/v1/items/soup-7/reviews/u-17")
            #expect(removed.status == 200 && object(removed)["cleared"] as? Bool == true)
            #expect((object(removed)["summary"] as? [String: Any])?["count"] as? Int == 1)
            #expect(object(service.request("DELETE", "/v1/items/soup-7/reviews/u-17"))["cleared"] as? Bool == false)
            let missing = service.request("GET", "/v1/items/soup-7/reviews/u-17")
            #expect(missing.status == 404 && object(missing)["type"] as? String == "urn:ratings:problem:review-not-found")
            // Clearing the rating removes the review with it.
            review(service, "soup-7", "u-17", 4)
            _ = service.request("DELETE", "/v1/items/soup-7/ratings/u-17")
            #expect(service.request("GET", "/v1/items/soup-7/reviews/u-17").status == 404)
            #expect(object(service.request("GET", "/v1/items/soup-7"))["reviewCount"] as? Int == 0)
        }
    }

    @Test("the text rules: control characters by position, limits in scalar values, NFC, language tags; nothing written on refusal")
    func textRules() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            let bell = review(service, "soup", "u-1", 4, body: "ab\u{7}c")
            #expect(bell.status == 422 && detail(bell).contains("U+0007") && detail(bell).contains("position 3"), "\(bell.text)")
            let c1 = review(service, "soup", "u-1", 4, body: "ok", title: "x\u{85}")
            #expect(c1.status == 422 && detail(c1).contains("title") && detail(c1).contains("position 2"))
            let long = review(service, "soup", "u-1", 4, body: String(repeating: "😀", count: 5_001))
            #expect(long.status == 422 && detail(long).contains("5001") && detail(long).contains("5000"), "\(long.text)")
            let exact = review(service, "soup", "u-1", 4, body: String(repeating: "😀", count: 5_000))
            #expect(exact.status == 201, "5,000 emoji are 5,000 scalar values")
            let titleLong = review(service, "soup", "u-2", 4, title: String(repeating: "t", count: 101))
            #expect(titleLong.status == 422 && detail(titleLong).contains("101") && detail(titleLong).contains("100"))
            let blank = review(service, "soup", "u-2", 4, body: " \n\t ")
            #expect(blank.status == 422 && object(blank)["type"] as? String == "urn:ratings:problem:text-required")
            let tag = review(service, "soup", "u-2", 4, language: "english!")
            #expect(tag.status == 422 && object(tag)["type"] as? String == "urn:ratings:problem:invalid-language-tag")
            let nfd = review(service, "soup", "u-2", 4, body: "Cafe\u{301}", title: "   ", language: "zh-hant-tw")
            #expect(nfd.status == 201 && object(nfd)["body"] as? String == "Caf\u{E9}" && object(nfd)["title"] is NSNull)
            #expect(object(nfd)["language"] as? String == "zh-Hant-TW")
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-3", json: #"{"stars": 4}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-3", json: #"{"stars": 4, "body": 7}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-3", json: #"[1]"#).status == 422)
            let stars = service.request("PUT", "/v1/items/soup/reviews/u-3", json: #"{"stars": 6, "body": "x"}"#)
            #expect(stars.status == 422 && detail(stars).contains("1 to 5"))
            let summary = object(service.request("GET", "/v1/items/soup"))
            #expect(summary["count"] as? Int == 2 && summary["reviewCount"] as? Int == 2, "only the two accepted reviews were written")
        }
    }

    @Test("lists: four orders, stars and language filters, cursors bound to item, sort and filters, ETag and 304", arguments: TestEngine.all)
    func lists(engine: TestEngine) async throws {
        try await withAPI(engine, over: .socket) { service in
            let languages = ["en", "en-GB", "de", "pt-BR"]
            for index in 0..<12 {
                review(service, "soup", "r-\(index < 10 ? "0" : "")\(index)", index % 5 + 1, language: languages[index % 4])
                service.clock.advance(seconds: 1)
            }
            for voter in 0..<3 { _ = service.request("PUT", "/v1/items/soup/reviews/r-02/votes/v-\(voter)", json: #"{"helpful": true}"#) }
            let newest = object(service.request("GET", "/v1/items/soup/reviews?limit=3"))
            #expect((newest["reviews"] as? [[String: Any]])?.map { $0["raterId"] as? String } == ["r-11", "r-10", "r-09"])
            let helpful = object(service.request("GET", "/v1/items/soup/reviews?sort=helpful&limit=1"))
            #expect((helpful["reviews"] as? [[String: Any]])?.first?["raterId"] as? String == "r-02")
            // Every page of a filtered order, cursor by cursor.
            var seen: [String] = [], cursor: String?
            repeat {
                let path = "/v1/items/soup/reviews?sort=highest&stars=5,4&language=EN&limit=1" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = object(service.request("GET", path))
                seen += (page["reviews"] as? [[String: Any]])?.compactMap { $0["raterId"] as? String } ?? []
                cursor = page["nextCursor"] as? String
            } while cursor != nil && seen.count < 20
            #expect(seen == ["r-09", "r-04", "r-08"], "\(seen)")
            let first = object(service.request("GET", "/v1/items/soup/reviews?sort=highest&stars=4%2C5&language=en&limit=1"))
            let next = try #require(first["nextCursor"] as? String)
            #expect(service.request("GET", "/v1/items/soup/reviews?sort=highest&stars=4&stars=5&language=en&limit=2&cursor=\(next)").status == 200,
                    "the same filter written another way, and another limit")
            let otherSort = service.request("GET", "/v1/items/soup/reviews?sort=lowest&stars=4,5&language=en&cursor=\(next)")
            #expect(otherSort.status == 400 && detail(otherSort).contains("cursor"))
            #expect(service.request("GET", "/v1/items/soup/reviews?sort=highest&stars=5&language=en&cursor=\(next)").status == 400)
            #expect(service.request("GET", "/v1/items/other/reviews?sort=highest&stars=4,5&language=en&cursor=\(next)").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?sort=highest&stars=4,5&language=en&cursor=\(next.dropLast())\(next.last == "A" ? "B" : "A")").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?sort=best").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?stars=0").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?stars=4,,5").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?language=e").status == 400)
            #expect(service.request("GET", "/v1/items/soup/reviews?limit=101").status == 400)
            let list = service.request("GET", "/v1/items/soup/reviews")
            let etag = try #require(list.header("etag"))
            #expect(service.request("GET", "/v1/items/soup/reviews", headers: ["If-None-Match": etag]).status == 304)
            #expect(service.request("HEAD", "/v1/items/soup/reviews").status == 200)
            #expect(object(service.request("GET", "/v1/items/nothing/reviews"))["reviews"] as? [Any] != nil)
        }
    }

    @Test("votes: 201, 200, withdrawn with helpful null; own review 403; missing review 404; counts in the Review", arguments: TestEngine.all)
    func votes(engine: TestEngine) async throws {
        try await withAPI(engine, over: .socket) { service in
            review(service, "soup", "author", 4)
            let first = service.request("PUT", "/v1/items/soup/reviews/author/votes/v-1", json: #"{"helpful": true}"#)
            #expect(first.status == 201 && object(first)["helpful"] as? Bool == true)
            #expect(((object(first)["review"] as? [String: Any])?["helpful"] as? [String: Int]) == ["up": 1, "down": 0])
            let replaced = service.request("PUT", "/v1/items/soup/reviews/author/votes/v-1", json: #"{"helpful": false}"#)
            #expect(replaced.status == 200 && ((object(replaced)["review"] as? [String: Any])?["helpful"] as? [String: Int]) == ["up": 0, "down": 1])
            let withdrawn = service.request("DELETE", "/v1/items/soup/reviews/author/votes/v-1")
            #expect(withdrawn.status == 200 && object(withdrawn)["helpful"] is NSNull)
            #expect(service.request("DELETE", "/v1/items/soup/reviews/author/votes/v-1").status == 200)
            let own = service.request("PUT", "/v1/items/soup/reviews/author/votes/author", json: #"{"helpful": true}"#)
            #expect(own.status == 403 && object(own)["type"] as? String == "urn:ratings:problem:own-review")
            #expect(service.request("PUT", "/v1/items/soup/reviews/nobody/votes/v-1", json: #"{"helpful": true}"#).status == 404)
            #expect(service.request("PUT", "/v1/items/soup/reviews/author/votes/v-1", json: #"{"helpful": "yes"}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/author/votes/v-1", json: #"{}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/author/votes/me", json: #"{"helpful": true}"#).status == 400)
            let metrics = service.request("GET", "/metrics").text
            #expect(metrics.contains("ratings_review_votes_total{helpful=\"true\"} 1") && metrics.contains("ratings_review_votes_total{helpful=\"false\"} 1"))
            #expect(metrics.contains("ratings_reviews_written_total 1"))
        }
    }

    @Test("with tokens: writes and votes are the subject's (me works), reads stay public")
    func tokens() async throws {
        try await withAPI(.sqlite, verifier: try JWTVerifier(secret: secret)) { service in
            #expect(review(service, "soup", "u-1", 4, headers: bearer("u-2")).status == 403)
            #expect(review(service, "soup", "u-1", 4).status == 401)
            #expect(review(service, "soup", "me", 4, headers: bearer("u-1")).status == 201)
            #expect(service.request("GET", "/v1/items/soup/reviews/u-1").status == 200)
            #expect(service.request("GET", "/v1/items/soup/reviews").status == 200)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/votes/u-3", json: #"{"helpful": true}"#, headers: bearer("u-2")).status == 403)
            let vote = service.request("PUT", "/v1/items/soup/reviews/u-1/votes/me", json: #"{"helpful": true}"#, headers: bearer("u-2"))
            #expect(vote.status == 201 && object(vote)["voterId"] as? String == "u-2")
            #expect(service.request("GET", "/v1/raters/u-1/reviews", headers: bearer("u-2")).status == 403)
            #expect(service.request("GET", "/v1/raters/me/reviews", headers: bearer("u-1")).status == 200)
        }
    }

    @Test("replies: 201, 200, removed with reply null; text rules; 404 without a review; with tokens the scope ratings:reply and its subject as author")
    func replies() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            review(service, "soup", "u-1", 4)
            let first = service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": " Thank you!\r\n"}"#)
            #expect(first.status == 201 && (object(first)["reply"] as? [String: Any])?["body"] as? String == "Thank you!")
            #expect((object(first)["reply"] as? [String: Any])?["author"] is NSNull)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Again."}"#).status == 200)
            let listed = object(service.request("GET", "/v1/items/soup/reviews"))
            #expect(((listed["reviews"] as? [[String: Any]])?.first?["reply"] as? [String: Any])?["body"] as? String == "Again.")
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "\u0007"}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{}"#).status == 422)
            #expect(service.request("PUT", "/v1/items/soup/reviews/nobody/reply", json: #"{"body": "Hi"}"#).status == 404)
            let removed = service.request("DELETE", "/v1/items/soup/reviews/u-1/reply")
            #expect(removed.status == 200 && object(removed)["reply"] is NSNull)
            #expect(service.request("DELETE", "/v1/items/soup/reviews/u-1/reply").status == 200)
        }
        try await withAPI(.sqlite, verifier: try JWTVerifier(secret: secret)) { service in
            #expect(review(service, "soup", "u-1", 4, headers: bearer("u-1")).status == 201)
            let plain = service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Hi"}"#, headers: bearer("shop"))
            #expect(plain.status == 403 && detail(plain).contains("ratings:reply"))
            #expect(service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Hi"}"#).status == 401)
            let owner = service.request("PUT", "/v1/items/soup/reviews/u-1/reply", json: #"{"body": "Hi"}"#, headers: bearer("shop", scope: "ratings:reply"))
            #expect(owner.status == 201 && (object(owner)["reply"] as? [String: Any])?["author"] as? String == "shop")
            let admin = service.request("DELETE", "/v1/items/soup/reviews/u-1/reply", headers: bearer("ops", scope: "ratings:admin"))
            #expect(admin.status == 200 && object(admin)["reply"] is NSNull)
        }
    }

    @Test("the rater's reviews in pages; erasure removes reviews and given votes and says how many", arguments: TestEngine.all)
    func raterSide(engine: TestEngine) async throws {
        try await withAPI(engine, over: .socket) { service in
            for index in 0..<5 {
                review(service, "item-\(index)", "u-17", 3)
                service.clock.advance(seconds: 1)
            }
            review(service, "item-0", "u-2", 5)
            _ = service.request("PUT", "/v1/items/item-0/reviews/u-2/votes/u-17", json: #"{"helpful": true}"#)
            _ = service.request("PUT", "/v1/items/item-0/reviews/u-17/votes/u-2", json: #"{"helpful": true}"#)
            var seen: [String] = [], cursor: String?
            repeat {
                let page = object(service.request("GET", "/v1/raters/u-17/reviews?limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")))
                seen += (page["reviews"] as? [[String: Any]])?.compactMap { $0["itemId"] as? String } ?? []
                cursor = page["nextCursor"] as? String
            } while cursor != nil && seen.count < 10
            #expect(seen == ["item-4", "item-3", "item-2", "item-1", "item-0"])
            let erased = service.request("DELETE", "/v1/raters/u-17")
            #expect(erased.text == #"{"raterId":"u-17","cleared":5,"reviews":5,"votes":1,"flags":0}"#)
            let kept = object(service.request("GET", "/v1/items/item-0/reviews/u-2"))
            #expect((kept["helpful"] as? [String: Int]) == ["up": 0, "down": 0])
            #expect(object(service.request("GET", "/v1/items/item-0"))["reviewCount"] as? Int == 1)
            #expect(service.request("GET", "/metrics").text.contains("ratings_reviews_removed_total 5"))
        }
    }
}

@Suite("Kept review pages never outlive a write")
struct ReviewPageKeepingTests {
    /// The raters of the item's first page in `sort`, as answered now.
    private func raters(_ service: APIHarness, _ query: String) -> [String] {
        (object(service.request("GET", "/v1/items/soup/reviews?" + query))["reviews"] as? [[String: Any]])?
            .compactMap { $0["raterId"] as? String } ?? []
    }

    @Test("every kind of write shows in the next read of a page read before it", arguments: TestEngine.all)
    func writesShow(engine: TestEngine) async throws {
        try await withAPI(engine, over: .socket) { service in
            review(service, "soup", "a", 5)
            service.clock.advance(seconds: 1)
            review(service, "soup", "b", 3)
            #expect(raters(service, "sort=helpful") == ["b", "a"] && raters(service, "sort=helpful") == ["b", "a"])
            _ = service.request("PUT", "/v1/items/soup/reviews/a/votes/v", json: #"{"helpful": true}"#)
            #expect(raters(service, "sort=helpful") == ["a", "b"], "a vote")
            _ = service.request("DELETE", "/v1/items/soup/reviews/a/votes/v")
            #expect(raters(service, "sort=helpful") == ["b", "a"], "a withdrawn vote")
            #expect(raters(service, "sort=highest") == ["a", "b"])
            _ = service.request("PUT", "/v1/items/soup/ratings/a", json: #"{"stars": 1}"#)
            #expect(raters(service, "sort=highest") == ["b", "a"], "stars through the rating route")
            _ = service.request("PUT", "/v1/items/soup/reviews/b/votes/v", json: #"{"helpful": false}"#)
            #expect(raters(service, "sort=helpful&stars=3") == ["b"])
            _ = service.request("DELETE", "/v1/raters/v")
            let afterErasure = object(service.request("GET", "/v1/items/soup/reviews?sort=helpful&stars=3"))
            #expect(((afterErasure["reviews"] as? [[String: Any]])?.first?["helpful"] as? [String: Int]) == ["up": 0, "down": 0],
                    "erasing a voter")
            _ = service.request("DELETE", "/v1/items/soup/ratings/b")
            #expect(raters(service, "sort=newest") == ["a"], "clearing a rating")
            _ = service.request("DELETE", "/v1/items/soup/reviews/a")
            #expect(raters(service, "sort=newest") == [], "removing a review")
            review(service, "soup", "c", 4, body: "New.")
            #expect(raters(service, "sort=newest") == ["c"], "a new review")
            review(service, "soup", "c", 4, body: "Edited.")
            let edited = object(service.request("GET", "/v1/items/soup/reviews?sort=newest"))
            #expect((edited["reviews"] as? [[String: Any]])?.first?["body"] as? String == "Edited.", "an edit")
        }
    }
}
