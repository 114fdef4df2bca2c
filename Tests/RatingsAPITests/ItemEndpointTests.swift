import Foundation
import TestSupport
import Testing

@Suite("Item summaries, batches and scales")
struct ItemEndpointTests {
    @Test("an unknown item reads as not rated on the default scale, never 404", arguments: TestEngine.all)
    func unknownItemIsNotRated(engine: TestEngine) async throws {
        try await withAPI(engine, defaultMaxRating: 7) { service in
            let response = service.request("GET", "/v1/items/nobody-rated-this")
            #expect(response.status == 200)
            #expect(response.text == #"{"itemId":"nobody-rated-this","maxRating":7,"count":0,"average":null,"distribution":[0,0,0,0,0,0,0],"reviewCount":0,"display":{"value":0,"symbols":["star","star","star","star","star","star","star"],"fill":[0,0,0,0,0,0,0],"accessibilityLabel":"Rating","accessibilityValue":"Not rated","caption":"","layoutDirection":"leftToRight","halfStarFillsFrom":"left"}}"#)
        }
    }

    @Test("the summary ETag changes when a write changes the body, and 304 otherwise", arguments: TestEngine.all)
    func summaryETag(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let before = service.request("GET", "/v1/items/i")
            let etag = try #require(before.header("etag"))
            #expect(service.request("GET", "/v1/items/i", headers: ["If-None-Match": etag]).status == 304)
            #expect(service.request("HEAD", "/v1/items/i", headers: ["If-None-Match": etag]).status == 304)
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 5}"#)
            let after = service.request("GET", "/v1/items/i", headers: ["If-None-Match": etag])
            #expect(after.status == 200 && after.header("etag") != etag)
        }
    }

    @Test("configuring a scale: 201 first, 200 after, 409 with ratings on another scale, 422 outside 1...10", arguments: TestEngine.all)
    func configureScale(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let first = service.request("PUT", "/v1/items/cake", json: #"{"maxRating": 3}"#)
            #expect(first.status == 201 && object(first)["maxRating"] as? Int == 3)
            #expect(service.request("PUT", "/v1/items/cake", json: #"{"maxRating": 4}"#).status == 200)
            _ = service.request("PUT", "/v1/items/cake/ratings/r", json: #"{"stars": 4}"#)
            let conflict = service.request("PUT", "/v1/items/cake", json: #"{"maxRating": 10}"#)
            #expect(conflict.status == 409 && detail(conflict).contains("4-star"))
            #expect(service.request("PUT", "/v1/items/cake", json: #"{"maxRating": 4}"#).status == 200)
            for bad in [#"{"maxRating": 0}"#, #"{"maxRating": 11}"#, #"{"maxRating": "3"}"#, #"{"maxRating": 3.5}"#, #"{}"#, "[]"] {
                let response = service.request("PUT", "/v1/items/cake", json: bad)
                #expect(response.status == 422, "\(bad)")
                #expect(detail(response).contains("from 1 to 10"))
            }
            #expect(service.request("PUT", "/v1/items/cake", json: #"{"maxRating": 3}"#, headers: ["Content-Type": "text/plain"]).status == 415)
        }
    }

    @Test("the first rating fixes the default scale; it survives clearing every rating", arguments: TestEngine.all)
    func firstRatingFixesScale(engine: TestEngine) async throws {
        try await withAPI(engine, defaultMaxRating: 4) { service in
            _ = service.request("PUT", "/v1/items/soup/ratings/r", json: #"{"stars": 4}"#)
            _ = service.request("DELETE", "/v1/items/soup/ratings/r")
            #expect(object(service.request("GET", "/v1/items/soup"))["maxRating"] as? Int == 4)
        }
    }

    @Test("a batch answers in the order asked, repeats repeated, ids percent-decoded", arguments: TestEngine.all)
    func batchOrder(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            _ = service.request("PUT", "/v1/items/b/ratings/r", json: #"{"stars": 2}"#)
            _ = service.request("PUT", "/v1/items/a:1/ratings/r", json: #"{"stars": 5}"#)
            let response = service.request("GET", "/v1/items?ids=b,a%3A1,zzz,b")
            #expect(response.status == 200)
            let items = try #require(object(response)["items"] as? [[String: Any]])
            #expect(items.map { $0["itemId"] as? String } == ["b", "a:1", "zzz", "b"])
            #expect(items.map { $0["count"] as? Int } == [1, 1, 0, 1])
            let etag = try #require(response.header("etag"))
            #expect(service.request("GET", "/v1/items?ids=b,a%3A1,zzz,b", headers: ["If-None-Match": etag]).status == 304)
            // A write to one of the items changes the batch's ETag, built from its parts' own.
            _ = service.request("PUT", "/v1/items/a:1/ratings/s", json: #"{"stars": 1}"#)
            let after = service.request("GET", "/v1/items?ids=b,a%3A1,zzz,b", headers: ["If-None-Match": etag])
            #expect(after.status == 200 && after.header("etag") != etag)
        }
    }

    @Test("batch ids in every form clients send: commas, %2C, repeated ids=, mixed", arguments: [
        "ids=a,b,c", "ids=a%2Cb%2Cc", "ids=a%2cb,c", "ids=a&ids=b&ids=c", "ids=a,b&ids=c", "ids=a&x=1&ids=b%2Cc",
    ])
    func batchForms(query: String) async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/items?\(query)")
            #expect(response.status == 200)
            #expect((object(response)["items"] as? [[String: Any]])?.map { $0["itemId"] as? String } == ["a", "b", "c"])
        }
    }

    @Test("bad batches are 400 with the reason", arguments: [
        ("/v1/items", "ids=a,b,c"), ("/v1/items?ids=", "\"\""), ("/v1/items?ids=a,,b", "\"\""), ("/v1/items?ids=a,..", "\"..\""),
        ("/v1/items?ids=a&ids=", "\"\""), ("/v1/items?ids=ok,bad%20id", "\"bad id\""), ("/v1/items?ids=a%2C%2Cb", "\"\""),
        ("/v1/items?ids=" + (0...100).map { "i\($0)" }.joined(separator: ","), "at most 100"), ("/v1/items?ids=a%zz", "\"a%zz\""),
        ("/v1/items?" + (0...100).map { "ids=i\($0)" }.joined(separator: "&"), "at most 100"),
        ("/v1/items?ids=" + (0..<60).map { "i\($0)" }.joined(separator: ",") + "&ids=" + (0..<41).map { "j\($0)" }.joined(separator: "%2C"), "at most 100"),
        // Too many is said first, even when an id among them is also bad.
        ("/v1/items?ids=a,..," + (0...100).map { "i\($0)" }.joined(separator: ","), "at most 100"),
    ])
    func badBatches(path: String, mention: String) async throws {
        try await withAPI { service in
            let response = service.request("GET", path)
            #expect(response.status == 400)
            #expect(detail(response).contains(mention), "\(detail(response))")
        }
    }

    @Test("100 ids are fine, in one value or spread over several", arguments: TestEngine.all)
    func hundredIds(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            let response = service.request("GET", "/v1/items?ids=" + (0..<100).map { "i\($0)" }.joined(separator: ","))
            #expect(response.status == 200)
            #expect((object(response)["items"] as? [Any])?.count == 100)
            let mixed = service.request("GET", "/v1/items?ids=" + (0..<50).map { "i\($0)" }.joined(separator: "%2C") + "&"
                                        + (50..<100).map { "ids=i\($0)" }.joined(separator: "&"))
            #expect((object(mixed)["items"] as? [Any])?.count == 100)
        }
    }
}
