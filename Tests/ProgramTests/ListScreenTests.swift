import Foundation
import TestSupport
import Testing

private func ids(_ body: [String: Any], _ list: String = "items", _ field: String = "itemId") -> [String] {
    (body[list] as? [[String: Any]] ?? []).compactMap { $0[field] as? String }
}

@Suite("List screens through the real binary: the ranking and the rater's side", .serialized)
struct ListScreenTests {
    @Test("the ranking answers the hand-computed scores of the prior and weight it was started with, and re-scores when they change")
    func rankingScoresAndRescoring() throws {
        let directory = try TemporaryDirectory("ratings-ranking")
        defer { directory.remove() }
        let database = directory.file("db.sqlite")
        var server = try RatingsServer(["--database", database, "--write-rate", "0", "--ranking-prior", "0.7", "--ranking-weight", "4"])
        defer { server.stop() }
        #expect(try server.request("PUT", "/v1/items/three", json: #"{"maxRating": 3}"#).status == 201)
        #expect(try server.request("PUT", "/v1/items/one", json: #"{"maxRating": 1}"#).status == 201)
        for (item, rater, stars) in [("five", "a", 5), ("three", "a", 2), ("three", "b", 3), ("one", "a", 1), ("low", "a", 1), ("low", "b", 1)] {
            #expect(try server.request("PUT", "/v1/items/\(item)/ratings/\(rater)", json: #"{"stars": \#(stars)}"#).status == 201)
        }
        for rater in 0..<10 {
            #expect(try server.request("PUT", "/v1/items/many/ratings/r\(rater)", json: #"{"stars": \#(rater < 5 ? 5 : 4)}"#).status == 201)
        }
        // score = (W·P + Σ (stars − 1) / (maxRating − 1)) / (W + count), with P = 0.7 and W = 4:
        //   many  (2.8 + 5·1 + 5·0.75) / 14 = 0.825
        //   five  (2.8 + 1) / 5           = 0.76
        //   one   (2.8 + 1) / 5           = 0.76 (a 1-star scale counts its rating as 1; tie, same count, id after five)
        //   three (2.8 + 0.5 + 1) / 6     = 0.71666… → 0.7167
        //   low   (2.8 + 0 + 0) / 6       = 0.46666… → 0.4667
        let top = try server.request("GET", "/v1/rankings/top")
        #expect(top.status == 200)
        let body = try server.object("GET", "/v1/rankings/top")
        #expect(ids(body) == ["many", "five", "one", "three", "low"])
        let scores = top.text.matches(of: /"score":([0-9.]+)/).map { String($0.output.1) }
        #expect(scores == ["0.8250", "0.7600", "0.7600", "0.7167", "0.4667"])
        #expect(ids(try server.object("GET", "/v1/rankings/top?minCount=2")) == ["many", "three", "low"])

        // A restart with W = 0 ranks by the plain share of the scale; the stored order follows at once.
        server.stop()
        server = try RatingsServer(["--database", database, "--write-rate", "0", "--ranking-prior", "0.7", "--ranking-weight", "0"])
        let rescored = try server.request("GET", "/v1/rankings/top")
        #expect(ids(try server.object("GET", "/v1/rankings/top")) == ["five", "one", "many", "three", "low"])
        #expect(rescored.text.matches(of: /"score":([0-9.]+)/).map { String($0.output.1) } == ["1.0000", "1.0000", "0.8750", "0.7500", "0.0000"])
    }

    @Test("a list screen's batch with myStars, the rater's ratings page by page, then erasure everywhere at once")
    func raterSide() throws {
        let directory = try TemporaryDirectory("ratings-rater")
        defer { directory.remove() }
        let server = try RatingsServer(["--database", directory.file("db.sqlite"), "--write-rate", "0"])
        defer { server.stop() }
        for (index, item) in ["soup", "pho", "tapas"].enumerated() {
            #expect(try server.request("PUT", "/v1/items/\(item)/ratings/u-17", json: #"{"stars": \#(index + 3)}"#).status == 201)
            #expect(try server.request("PUT", "/v1/items/\(item)/ratings/u-18", json: #"{"stars": 1}"#).status == 201)
        }
        let batch = try server.request("GET", "/v1/items?ids=soup&ids=nothing,tapas&rater=u-17")
        #expect(batch.status == 200)
        #expect(batch.text.matches(of: /"myStars":(null|\d)/).map { String($0.output.1) } == ["3", "null", "5"])

        var listed: [String] = [], path = "/v1/raters/u-17/ratings?limit=2"
        while true {
            let page = try server.object("GET", path)
            listed += ids(page, "ratings")
            guard let cursor = page["nextCursor"] as? String else { break }
            path = "/v1/raters/u-17/ratings?limit=2&cursor=\(cursor)"
        }
        #expect(listed == ["tapas", "pho", "soup"])
        #expect(try server.request("GET", "/v1/raters/u-17/ratings?cursor=AQAAAaIvs0sQc291cC03BxGJq_yv16OaaLuSEu3diQ").status == 400)

        let erased = try server.object("DELETE", "/v1/raters/u-17")
        #expect(erased["raterId"] as? String == "u-17" && erased["cleared"] as? Int == 3)
        #expect(try server.object("DELETE", "/v1/raters/u-17")["cleared"] as? Int == 0)
        let soup = try server.object("GET", "/v1/items/soup")
        #expect(soup["count"] as? Int == 1 && soup["distribution"] as? [Int] == [1, 0, 0, 0, 0])
        #expect(try server.request("GET", "/v1/items?ids=soup,pho,tapas&rater=u-17").text.matches(of: /"myStars":null/).count == 3)
        #expect(ids(try server.object("GET", "/v1/raters/u-17/ratings"), "ratings").isEmpty)
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains("ratings_ratings_cleared_total 3"))
    }
}
