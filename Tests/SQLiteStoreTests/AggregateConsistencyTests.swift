import RatingsCore
@testable import SQLiteStore
import TestSupport
import Testing

@Suite("Aggregates never disagree with the ratings")
struct AggregateConsistencyTests {
    @Test("10,000 random upserts and clears, then every stored aggregate recomputed from the ratings table in SQL")
    func randomWritesKeepAggregatesExact() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        var random = SplitMix(state: 42)
        let scales = try (1...10).map { try Scale(maxRating: $0) }
        // Writes go in waves of concurrent requests so they share group commits.
        for _ in 0..<40 {
            var wave: [(Int, Int, Int, Int)] = []
            for _ in 0..<250 {
                wave.append((Int.random(in: 0..<300, using: &random), Int.random(in: 0..<200, using: &random),
                             Int.random(in: 0...10, using: &random), Int.random(in: 0..<10, using: &random)))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (item, rater, stars, scaleIndex) in wave {
                    group.addTask {
                        let itemID = ItemID(stored: "item-\(item)"), raterID = RaterID(stored: "rater-\(rater)")
                        if stars == 0 {
                            _ = try await store.clear(ClearRequest(item: itemID, rater: raterID, defaultScale: scales[scaleIndex], nowMilliseconds: 0))
                        } else {
                            do {
                                _ = try await store.submit(SubmitRequest(item: itemID, rater: raterID, stars: stars,
                                                                         defaultScale: scales[scaleIndex], nowMilliseconds: 1))
                            } catch RatingError.starsOutOfRange {
                                // expected for stars above the item's scale
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let check = try SQLiteConnection(path: path)
        let columns = (1...10).map { "i.stars_\($0) != (SELECT count(*) FROM ratings r WHERE r.item_id = i.item_id AND r.stars = \($0))" }
        let mismatches = try check.scalarText("""
            SELECT count(*) FROM items i WHERE
              i.rating_count != (SELECT count(*) FROM ratings r WHERE r.item_id = i.item_id)
              OR i.rating_sum != (SELECT coalesce(sum(stars), 0) FROM ratings r WHERE r.item_id = i.item_id)
              OR \(columns.joined(separator: " OR "))
              OR EXISTS (SELECT 1 FROM ratings r WHERE r.item_id = i.item_id AND r.stars > i.max_rating)
            """)
        #expect(mismatches == "0")
        let ratings = Int(try check.scalarText("SELECT count(*) FROM ratings") ?? "0") ?? 0
        #expect(ratings > 1_000, "the random walk should leave many ratings behind")
        #expect(try check.scalarText("SELECT count(*) FROM ratings r LEFT JOIN items i USING (item_id) WHERE i.item_id IS NULL") == "0")
        #expect(try check.scalarText("PRAGMA integrity_check") == "ok")
    }

    @Test("the summary every write answers with, and the cache keeps, is the item's row as the file holds it")
    func writtenSummariesMatchTheFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var configuration = SQLiteStoreConfiguration(path: dir.file("db.sqlite"))
        configuration.claimsFile = true // the serving store: it caches what the writer computes
        let store = try SQLiteRatingStore(configuration)
        let file = try SQLiteRatingStore(SQLiteStoreConfiguration(path: configuration.path)) // no cache: reads the file
        var random = SplitMix(state: 7)
        let scales = try (1...10).map { try Scale(maxRating: $0) }
        let items = (0..<12).map { ItemID(stored: "item-\($0)") }
        let raters = (0..<6).map { RaterID(stored: "rater-\($0)") }
        // An item the store never wrote nor read is not cached; every item a write changed is.
        // An item without a row reads as empty on the scale asked for, which is `scale`.
        func expectMatches(_ item: ItemID, _ answered: ItemSummary?, written: Bool, on scale: Scale = .standard,
                           after step: String) async throws {
            let stored = try await file.summary(of: item, defaultScale: scale)
            if let answered { #expect(answered == stored, "\(step): the answer differs from the file") }
            let cached = store.cachedSummary(of: item, defaultScale: scale)
            if written || cached != nil { #expect(cached == stored, "\(step): the cache differs from the file") }
        }
        var writes = 0
        for step in 0..<400 {
            let item = items[Int.random(in: 0..<items.count, using: &random)]
            let rater = raters[Int.random(in: 0..<raters.count, using: &random)]
            let scale = scales[Int.random(in: 0..<scales.count, using: &random)]
            switch Int.random(in: 0..<20, using: &random) {
            case 0:
                _ = try await store.erase(rater)
                for item in items { try await expectMatches(item, nil, written: false, after: "step \(step), erasing \(rater.rawValue)") }
            case 1..<6:
                let outcome = try await store.clear(ClearRequest(item: item, rater: rater, defaultScale: scale, nowMilliseconds: 0))
                try await expectMatches(item, outcome.summary, written: outcome.cleared, on: scale, after: "step \(step), clearing")
            default:
                do {
                    let stars = Int.random(in: 1...10, using: &random)
                    let outcome = try await store.submit(SubmitRequest(item: item, rater: rater, stars: stars, defaultScale: scale,
                                                                       nowMilliseconds: 1))
                    writes += 1
                    try await expectMatches(item, outcome.summary, written: true, on: scale, after: "step \(step), \(stars) stars")
                } catch RatingError.starsOutOfRange {
                    // above the item's scale: refused, nothing written
                }
            }
        }
        #expect(writes > 100, "the walk should write many ratings")
    }

    @Test("hundreds of concurrent writers are all acknowledged and all stored")
    func concurrentWritersAllStored() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        let item = ItemID(stored: "popular")
        let acknowledged = try await withThrowingTaskGroup(of: Int.self) { group in
            for rater in 0..<500 {
                group.addTask {
                    let stars = rater % 5 + 1
                    _ = try await store.submit(SubmitRequest(item: item, rater: RaterID(stored: "r\(rater)"), stars: stars,
                                                             defaultScale: .standard, nowMilliseconds: 1))
                    return stars
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(acknowledged.count == 500)
        let summary = try await store.summary(of: item, defaultScale: .standard)
        #expect(summary.count == 500)
        #expect(summary.sum == acknowledged.reduce(0, +))
        #expect(summary.distribution == [100, 100, 100, 100, 100])
        let reopened = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        #expect(try await reopened.summary(of: item, defaultScale: .standard).count == 500)
    }
}
