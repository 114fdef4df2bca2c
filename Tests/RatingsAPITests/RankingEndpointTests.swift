import Foundation
import TestSupport
import Testing

@Suite("GET /v1/rankings/top")
struct RankingEndpointTests {
    @Test("best first by Bayesian score with four decimals, then count, then id; pages; minCount", arguments: TestEngine.all)
    func ranking(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            _ = service.request("PUT", "/v1/items/lone-five/ratings/a", json: #"{"stars": 5}"#)
            for rater in 0..<20 { _ = service.request("PUT", "/v1/items/popular/ratings/r\(rater)", json: #"{"stars": 4}"#) }
            _ = service.request("PUT", "/v1/items/meh/ratings/a", json: #"{"stars": 1}"#)
            let response = service.request("GET", "/v1/rankings/top")
            #expect(response.status == 200)
            let body = object(response)
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.map { $0["itemId"] as? String } == ["popular", "lone-five", "meh"])
            #expect(response.text.contains(#""halfStarFillsFrom":"left"},"score":0.6667}"#))
            #expect(response.text.contains(#""score":0.5455}"#) && response.text.contains(#""score":0.4545}"#))
            #expect(body["nextCursor"] is NSNull)

            let first = object(service.request("GET", "/v1/rankings/top?limit=2"))
            let cursor = try #require(first["nextCursor"] as? String)
            let second = object(service.request("GET", "/v1/rankings/top?limit=2&cursor=\(cursor)"))
            #expect((second["items"] as? [[String: Any]])?.map { $0["itemId"] as? String } == ["meh"])
            #expect((object(service.request("GET", "/v1/rankings/top?minCount=2"))["items"] as? [Any])?.count == 1)
            let etag = try #require(response.header("etag"))
            #expect(service.request("GET", "/v1/rankings/top", headers: ["If-None-Match": etag]).status == 304)
            for bad in ["limit=0", "limit=101", "minCount=0", "minCount=x", "cursor=zzz", "limit=5&limit=5"] {
                #expect(service.request("GET", "/v1/rankings/top?\(bad)").status == 400, "\(bad)")
            }
            #expect(service.request("PUT", "/v1/rankings/top").header("allow") == "GET, HEAD")
        }
    }
}
