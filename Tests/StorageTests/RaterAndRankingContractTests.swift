import RatingsCore
import TestSupport
import Testing

private let five = Scale.standard

private func submit(_ store: any ReviewStore, _ item: String, _ rater: String, _ stars: Int, at time: Int64 = 1,
                    scale: Scale = five) async throws {
    _ = try await store.submit(SubmitRequest(item: ItemID(stored: item), rater: RaterID(stored: rater), stars: stars,
                                             defaultScale: scale, nowMilliseconds: time))
}

/// `item-07`: zero-padded, so names sort as numbers do.
private func name(_ index: Int) -> String { index < 10 ? "item-0\(index)" : "item-\(index)" }

@Suite("Every engine: a rater's side, erasure and the ranking")
struct RaterAndRankingContractTests {
    @Test("a batch naming a rater carries their stars, nil where they have none, in the order asked", arguments: TestEngine.all)
    func myStars(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await submit(store, "a", "me", 4)
            try await submit(store, "b", "other", 2)
            let asked = ["b", "a", "never", "a"].map { ItemID(stored: $0) }
            let listings = try await store.listings(of: asked, rater: RaterID(stored: "me"), defaultScale: five)
            #expect(listings.map(\.summary.item.rawValue) == ["b", "a", "never", "a"])
            #expect(listings.map { $0.myStars?.count } == [nil, 4, nil, 4])
            #expect(listings.map(\.summary.count) == [1, 1, 0, 1])
            let anonymous = try await store.listings(of: asked, rater: nil, defaultScale: five)
            #expect(anonymous.allSatisfy { $0.myStars == nil })
        }
    }

    @Test("a rater's ratings come newest first, ties by item id, page after page without repeats or gaps", arguments: TestEngine.all)
    func raterPages(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            // 25 ratings; times repeat so that ties are ordered by item id.
            for index in 0..<25 { try await submit(store, name(index), "u-1", index % 5 + 1, at: Int64(index / 3)) }
            try await submit(store, "item-x", "someone-else", 3, at: 100)
            let rater = RaterID(stored: "u-1")
            var seen: [Rating] = []
            var position: RaterPagePosition?
            var pages = 0
            repeat {
                let page = try await store.ratings(by: rater, after: position, limit: 7, defaultScale: five)
                seen += page.ratings
                position = page.next
                pages += 1
                // A write between pages to an already listed item moves it, but never repeats or skips the others.
                if pages == 2 { try await submit(store, "item-24", "u-1", 1, at: 50) }
            } while position != nil
            #expect(pages == 4)
            let times: [(time: Int64, item: String)] = (0..<25).map { (Int64($0 / 3), name($0)) }
            let expected = times.sorted { a, b in a.time != b.time ? a.time > b.time : a.item < b.item }.map(\.item)
            #expect(seen.map(\.item.rawValue) == expected, "the order is time descending, then item id")
            #expect(Set(seen.map(\.item.rawValue)).count == 25 && seen.allSatisfy { $0.rater == rater })
            #expect(try await store.ratings(by: RaterID(stored: "nobody"), after: nil, limit: 20, defaultScale: five) == RaterPage(ratings: [], next: nil))
            let exact = try await store.ratings(by: rater, after: nil, limit: 25, defaultScale: five)
            #expect(exact.ratings.count == 25 && exact.next == nil, "a page that holds the rest is the last")
        }
    }

    @Test("erasure removes every rating of the rater, updates each item, and is idempotent", arguments: TestEngine.all)
    func erasure(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for item in 0..<40 { try await submit(store, "item-\(item)", "leaving", item % 5 + 1) }
            for item in 0..<40 where item % 2 == 0 { try await submit(store, "item-\(item)", "staying", 3) }
            #expect(try await store.erase(RaterID(stored: "leaving")).ratings == 40)
            #expect(try await store.erase(RaterID(stored: "leaving")).ratings == 0)
            let summaries = try await store.summaries(of: (0..<40).map { ItemID(stored: "item-\($0)") }, defaultScale: five)
            for (index, summary) in summaries.enumerated() {
                let staying = index % 2 == 0
                #expect(summary.count == (staying ? 1 : 0) && summary.sum == (staying ? 3 : 0), "item-\(index)")
                #expect(summary.distribution == (staying ? [0, 0, 1, 0, 0] : [0, 0, 0, 0, 0]))
            }
            #expect(try await store.ratings(by: RaterID(stored: "leaving"), after: nil, limit: 10, defaultScale: five).ratings.isEmpty)
            #expect(try await store.ratings(by: RaterID(stored: "staying"), after: nil, limit: 100, defaultScale: five).ratings.count == 20)
        }
    }

    @Test("the ranking: by exact score, then count, then id; pages; every write, clear and erasure reflected",
          arguments: TestEngine.all)
    func ranking(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            // Scores under P 0.5, W 10 (the standard settings):
            try await submit(store, "one-five", "a", 5)                        // (5 + 1) / 11 = 0.5455
            for rater in 0..<20 { try await submit(store, "many-fours", "r\(rater)", 4) }  // (5 + 15) / 30 = 0.6667
            try await submit(store, "three-scale", "a", 3, scale: try Scale(maxRating: 3))  // (5 + 1) / 11, tied with one-five
            try await submit(store, "b-tie", "a", 5)                           // tied with one-five, id after it
            try await submit(store, "single-star", "a", 1, scale: try Scale(maxRating: 1))  // (5 + 1) / 11, the same again
            try await submit(store, "low", "a", 1)                             // (5 + 0) / 11 = 0.4545
            for rater in 0..<12 { try await submit(store, "twelve", "t\(rater)", rater < 7 ? 5 : 1) }  // (5 + 7) / 22 = 6 / 11 again, count 12
            _ = try await store.configure(ConfigureRequest(item: ItemID(stored: "unrated"), scale: five, nowMilliseconds: 0))
            let top = try await store.topRanked(after: nil, limit: 10)
            #expect(top.items.map(\.item.rawValue) == ["many-fours", "twelve", "b-tie", "one-five", "single-star", "three-scale", "low"])
            #expect(top.next == nil)

            // Pages of one and of two cover the same order: each page boundary falls on every kind
            // of tie (same score and count, same score and a lower count, a lower score).
            for limit in [1, 2] {
                var paged: [String] = [], position: RankingPosition?
                repeat {
                    let page = try await store.topRanked(after: position, limit: limit)
                    paged += page.items.map(\.item.rawValue)
                    position = page.next
                } while position != nil
                #expect(paged == top.items.map(\.item.rawValue), "pages of \(limit)")
            }

            // A second rating breaks the tie by count; a clear and an erasure are reflected at once.
            try await submit(store, "three-scale", "b", 3)
            #expect(try await store.topRanked(after: nil, limit: 2).items.map(\.item.rawValue) == ["many-fours", "three-scale"])
            _ = try await store.clear(ClearRequest(item: ItemID(stored: "three-scale"), rater: RaterID(stored: "b"), defaultScale: five, nowMilliseconds: 0))
            #expect(try await store.topRanked(after: nil, limit: 3).items.map(\.item.rawValue) == ["many-fours", "twelve", "b-tie"])
            #expect(try await store.erase(RaterID(stored: "a")).ratings == 5)
            #expect(try await store.topRanked(after: nil, limit: 10).items.map(\.item.rawValue) == ["many-fours", "twelve"])
            #expect(try await store.topRanked(after: nil, limit: 10, minCount: 21).items.isEmpty)
            #expect(try await store.topRanked(after: nil, limit: 10, minCount: 20).items.count == 1)
        }
    }
}
