import Foundation
import TestSupport
import Testing

@Suite("PUT, GET and DELETE of a rating, called directly over the in-memory store")
struct RatingEndpointTests {
    @Test("submit answers 201, replace answers 200, both with the rating, its display and the summary", arguments: TestEngine.all)
    func submitThenReplace(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let created = service.request("PUT", "/v1/items/dinner-42/ratings/u-17", json: #"{"stars": 4}"#)
            #expect(created.status == 201)
            let body = object(created)
            #expect(body["itemId"] as? String == "dinner-42" && body["raterId"] as? String == "u-17" && body["stars"] as? Int == 4)
            let updatedAt = try #require(body["updatedAt"] as? String)
            #expect(updatedAt.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil)
            let display = try #require(body["display"] as? [String: Any])
            #expect(display["accessibilityValue"] as? String == "4 out of 5 stars")
            #expect(display["symbols"] as? [String] == ["star.fill", "star.fill", "star.fill", "star.fill", "star"])
            let summary = try #require(body["summary"] as? [String: Any])
            #expect(summary["count"] as? Int == 1)

            let replaced = service.request("PUT", "/v1/items/dinner-42/ratings/u-17", json: #"{"stars": 2, "comment": "ignored"}"#)
            #expect(replaced.status == 200)
            #expect((object(replaced)["summary"] as? [String: Any])?["distribution"] as? [Int] == [0, 1, 0, 0, 0])
        }
    }

    @Test("a summary: 3, 4, 4 averages 3.67 and shows 3.5", arguments: TestEngine.all)
    func summaryExample(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            for (rater, stars) in [("a", 3), ("b", 4), ("c", 4)] {
                _ = service.request("PUT", "/v1/items/dinner-42/ratings/\(rater)", json: "{\"stars\":\(stars)}")
            }
            let response = service.request("GET", "/v1/items/dinner-42")
            #expect(response.text == #"{"itemId":"dinner-42","maxRating":5,"count":3,"average":3.67,"distribution":[0,0,1,2,0],"reviewCount":0,"display":{"value":3.5,"symbols":["star.fill","star.fill","star.fill","star.leadinghalf.filled","star"],"fill":[1,1,1,0.67,0],"accessibilityLabel":"Rating","accessibilityValue":"3.5 out of 5 stars","caption":"","layoutDirection":"leftToRight","halfStarFillsFrom":"left"}}"#)
        }
    }

    @Test("stars that are not an integer on the scale are 422 naming the range", arguments: TestEngine.all, [
        #"{"stars": null}"#, #"{"stars": "4"}"#, #"{"stars": true}"#, #"{"stars": 3.5}"#, #"{"stars": 4.5e0}"#,
        #"{"stars": 1e100}"#, #"{"stars": 0}"#, #"{"stars": 6}"#, #"{"stars": -1}"#, #"{}"#, #"[4]"#, #""4""#, "4",
        #"{"stars": 99999999999999999999999}"#, #"{"stars": [4]}"#,
    ])
    func rejectsStarsOutsideScale(engine: TestEngine, json: String) async throws {
        try await withAPI(engine) { service in
            let response = service.request("PUT", "/v1/items/i/ratings/r", json: json)
            #expect(response.status == 422)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(detail(response).contains("from 1 to 5"))
            #expect(service.request("GET", "/v1/items/i/ratings/r").status == 404, "nothing was stored")
        }
    }

    @Test("a whole number written with a fraction or an exponent is that integer, echoed plainly", arguments: [
        #"{"stars": 4.0}"#, #"{"stars": 4e0}"#, #"{"stars": 40e-1}"#, #"{"stars": 0.4E1}"#, #"{"stars": 4.000}"#,
    ])
    func wholeNumbersInAnyForm(json: String) async throws {
        try await withAPI { service in
            let response = service.request("PUT", "/v1/items/i/ratings/r", json: json)
            #expect(response.status == 201)
            #expect(response.text.contains(#""stars":4,"#))
            #expect(service.request("PUT", "/v1/items/scaled", json: #"{"maxRating": 5.0e0}"#).status == 201)
        }
    }

    @Test("the range in a 422 is the item's own scale", arguments: TestEngine.all)
    func rangeFollowsItemScale(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            #expect(service.request("PUT", "/v1/items/tiny", json: #"{"maxRating": 3}"#).status == 201)
            let response = service.request("PUT", "/v1/items/tiny/ratings/r", json: #"{"stars": 4}"#)
            #expect(response.status == 422 && detail(response).contains("from 1 to 3"))
            #expect(service.request("PUT", "/v1/items/tiny/ratings/r", json: #"{"stars": 3}"#).status == 201)
        }
    }

    @Test("a body that is not declared JSON is 415; declared JSON that does not parse is 400", arguments: TestEngine.all, [
        (nil as String?, #"{"stars":4}"#, 415), ("text/plain", #"{"stars":4}"#, 415), ("application/x-www-form-urlencoded", "stars=4", 415),
        ("application/json", #"{"stars":4"#, 400), ("application/json", "", 400), ("application/json", #"{"stars":4,"stars":5}"#, 400),
        ("application/json; charset=utf-8", #"{"stars":4}"#, 201), ("application/merge-patch+json", #"{"stars":4}"#, 201),
        ("APPLICATION/JSON", #"{"stars":4}"#, 201),
    ] as [(String?, String, Int)])
    func contentTypes(engine: TestEngine, example: (contentType: String?, body: String, status: Int)) async throws {
        let (contentType, body, status) = example
        try await withAPI(engine) { service in
            let response = service.request("PUT", "/v1/items/i/ratings/r", body: Array(body.utf8),
                                           headerLines: contentType.map { [("content-type", $0)] } ?? [])
            #expect(response.status == status)
            if status >= 400 { #expect(!detail(response).isEmpty) }
        }
    }

    @Test("bad identifiers are 400 naming the segment", arguments: [
        "/v1/items/./ratings/r", "/v1/items/../ratings/r", "/v1/items/%2E%2E/ratings/r", "/v1/items/a%2Fb/ratings/r",
        "/v1/items/i/ratings/caf%C3%A9", "/v1/items/\(String(repeating: "x", count: 129))/ratings/r", "/v1/items//ratings/r",
        "/v1/items/a%20b/ratings/r", "/v1/items/i/ratings/%zz",
    ])
    func rejectsBadIdentifiers(path: String) async throws {
        try await withAPI { service in
            let put = service.request("PUT", path, json: #"{"stars": 4}"#)
            #expect(put.status == 400, "\(path)")
            #expect(put.header("content-type") == "application/problem+json")
            #expect(service.request("GET", path).status == 400)
            #expect(service.request("DELETE", path).status == 400)
        }
    }

    @Test("clearing is idempotent: cleared true, then false; the summary follows", arguments: TestEngine.all)
    func clearIsIdempotent(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 4}"#)
            let first = service.request("DELETE", "/v1/items/i/ratings/r")
            #expect(first.status == 200)
            #expect(object(first)["cleared"] as? Bool == true)
            #expect((object(first)["summary"] as? [String: Any])?["count"] as? Int == 0)
            let second = service.request("DELETE", "/v1/items/i/ratings/r")
            #expect(second.status == 200 && object(second)["cleared"] as? Bool == false)
            #expect(service.request("GET", "/v1/items/i/ratings/r").status == 404)
        }
    }

    @Test("reading one rating: 200 with a strong ETag, 304 when it matches, 404 when absent, HEAD like GET", arguments: TestEngine.all)
    func readRating(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let missing = service.request("GET", "/v1/items/i/ratings/r")
            #expect(missing.status == 404 && missing.header("content-type") == "application/problem+json")
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 1}"#)
            let read = service.request("GET", "/v1/items/i/ratings/r")
            #expect(read.status == 200 && object(read)["summary"] == nil)
            let etag = try #require(read.header("etag"))
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let cached = service.request("GET", "/v1/items/i/ratings/r", headers: ["If-None-Match": etag])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.header("etag") == etag)
            let head = service.request("HEAD", "/v1/items/i/ratings/r")
            #expect(head.status == 200 && head.header("etag") == etag, "HEAD is GET's answer; the server drops the body")
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 2}"#)
            let changed = service.request("GET", "/v1/items/i/ratings/r", headers: ["If-None-Match": etag])
            #expect(changed.status == 200 && changed.header("etag") != etag)
        }
    }

}
