import RatingsAPI
import TestSupport
import Testing

@Suite("Wire rules a client branches on: a 422's type names the mistake; me needs a token")
struct WireRuleTests {
    @Test("a rating body that is not an object, a stars member missing or of another type, and a number out of range are three types",
          arguments: [
              (#"[4]"#, "body-not-an-object", "got an array"),
              (#""4""#, "body-not-an-object", "got a string"),
              (#"{}"#, "invalid-member", #"no "stars" member"#),
              (#"{"stars": "4"}"#, "invalid-member", "got a string"),
              (#"{"stars": null}"#, "invalid-member", "got null"),
              (#"{"stars": [4]}"#, "invalid-member", "got an array"),
              (#"{"stars": 4.5}"#, "stars-out-of-range", "got the number 4.5"),
              (#"{"stars": 9}"#, "stars-out-of-range", "got 9"),
              (#"{"stars": 1e100}"#, "stars-out-of-range", "got the number 1e100"),
          ])
    func ratingBodies(body: String, kind: String, got: String) async throws {
        try await withAPI(.sqlite) { service in
            let response = service.request("PUT", "/v1/items/i/ratings/r", json: body)
            #expect(response.status == 422)
            #expect(object(response)["type"] as? String == "urn:ratings:problem:\(kind)", "\(response.text)")
            #expect(detail(response).contains("from 1 to 5") && detail(response).contains(got), "\(detail(response))")
            #expect(object(service.request("GET", "/v1/items/i"))["count"] as? Int == 0, "nothing stored")
        }
    }

    @Test("the same three for an item's maxRating", arguments: [
        (#"7"#, "body-not-an-object"), (#"{"max": 3}"#, "invalid-member"), (#"{"maxRating": true}"#, "invalid-member"),
        (#"{"maxRating": 2.5}"#, "scale-out-of-range"), (#"{"maxRating": 11}"#, "scale-out-of-range"),
    ])
    func scaleBodies(body: String, kind: String) async throws {
        try await withAPI(.sqlite) { service in
            let response = service.request("PUT", "/v1/items/i", json: body)
            #expect(response.status == 422 && object(response)["type"] as? String == "urn:ratings:problem:\(kind)", "\(response.text)")
            #expect(detail(response).contains("1 to 10"), "\(detail(response))")
        }
    }

    @Test("me without tokens is 400 wherever a rater may stand, and no rater named me is stored", arguments: [
        ("PUT", "/v1/items/i/ratings/me"), ("GET", "/v1/items/i/ratings/me"), ("DELETE", "/v1/items/i/ratings/me"),
        ("GET", "/v1/items?ids=i&rater=me"), ("GET", "/v1/raters/me/ratings"), ("DELETE", "/v1/raters/me"),
    ])
    func meWithoutTokens(method: String, path: String) async throws {
        try await withAPI(.sqlite) { service in
            let response = service.request(method, path, json: method == "PUT" ? #"{"stars": 4}"# : nil)
            #expect(response.status == 400, "\(response.text)")
            #expect(detail(response).contains("me stands for the bearer token's subject"), "\(detail(response))")
            #expect(object(service.request("GET", "/v1/items/i"))["count"] as? Int == 0)
        }
    }
}
