import RatingsCore
import TestSupport
import Testing

private let five = Scale.standard

private func ids(_ item: String, _ rater: String) -> (ItemID, RaterID) {
    (ItemID(stored: item), RaterID(stored: rater))
}

@Suite("Every storage engine keeps the same rules")
struct StoreContractTests {
    @Test("submit creates, then replaces, and the summary follows", arguments: TestEngine.all)
    func submitCreatesThenReplaces(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (item, rater) = ids("dinner-42", "u-17")
            let first = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 4, defaultScale: five, nowMilliseconds: 1_000))
            #expect(first.created)
            #expect(first.summary.count == 1 && first.summary.sum == 4 && first.summary.distribution == [0, 0, 0, 1, 0])
            let second = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 2, defaultScale: five, nowMilliseconds: 2_000))
            #expect(!second.created)
            #expect(second.summary.count == 1 && second.summary.sum == 2 && second.summary.distribution == [0, 1, 0, 0, 0])
            let read = try #require(try await store.rating(of: item, by: rater, defaultScale: five))
            #expect(read.stars.count == 2 && read.updatedAtMilliseconds == 2_000 && read.scale == five)
        }
    }

    @Test("stars beyond the item's scale are refused and nothing is written", arguments: TestEngine.all)
    func rejectsStarsAboveScale(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (item, rater) = ids("tiny", "r")
            _ = try await store.configure(ConfigureRequest(item: item, scale: try Scale(maxRating: 3), nowMilliseconds: 0))
            await #expect(throws: RatingError.starsOutOfRange(given: "4", scale: try Scale(maxRating: 3))) {
                try await store.submit(SubmitRequest(item: item, rater: rater, stars: 4, defaultScale: five, nowMilliseconds: 1))
            }
            #expect(try await store.rating(of: item, by: rater, defaultScale: five) == nil)
            #expect(try await store.summary(of: item, defaultScale: five).count == 0)
        }
    }

    @Test("the first rating fixes the default scale, which stays after every rating is cleared", arguments: TestEngine.all)
    func firstRatingFixesScale(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (item, rater) = ids("soup", "r")
            let seven = try Scale(maxRating: 7)
            _ = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 6, defaultScale: seven, nowMilliseconds: 1))
            let cleared = try await store.clear(ClearRequest(item: item, rater: rater, defaultScale: five, nowMilliseconds: 0))
            #expect(cleared.cleared && cleared.summary.count == 0 && cleared.summary.scale == seven)
            #expect(try await store.summary(of: item, defaultScale: five).scale == seven)
            let again = try await store.clear(ClearRequest(item: item, rater: rater, defaultScale: five, nowMilliseconds: 0))
            #expect(!again.cleared)
            #expect(try await store.summary(of: ItemID(stored: "never"), defaultScale: five) == .empty(ItemID(stored: "never"), on: five))
            let unknown = try await store.clear(ClearRequest(item: ItemID(stored: "never"), rater: rater, defaultScale: five, nowMilliseconds: 0))
            #expect(!unknown.cleared && unknown.summary == .empty(ItemID(stored: "never"), on: five))
        }
    }

    @Test("configuring: created the first time, not after; a conflict when ratings exist on another scale", arguments: TestEngine.all)
    func configureRules(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let (item, rater) = ids("cake", "r")
            let three = try Scale(maxRating: 3)
            #expect(try await store.configure(ConfigureRequest(item: item, scale: three, nowMilliseconds: 0)).created)
            #expect(try await !store.configure(ConfigureRequest(item: item, scale: three, nowMilliseconds: 0)).created)
            _ = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 2, defaultScale: five, nowMilliseconds: 1))
            await #expect(throws: RatingError.scaleConflict(current: three, requested: five, ratingCount: 1)) {
                try await store.configure(ConfigureRequest(item: item, scale: five, nowMilliseconds: 0))
            }
            #expect(try await store.summary(of: item, defaultScale: five).scale == three, "the refused change left nothing behind")
            #expect(try await !store.configure(ConfigureRequest(item: item, scale: three, nowMilliseconds: 0)).created)
            // An item whose scale came from its first rating has no explicit scale yet.
            let (other, _) = ids("pie", "r")
            _ = try await store.submit(SubmitRequest(item: other, rater: rater, stars: 2, defaultScale: five, nowMilliseconds: 1))
            #expect(try await store.configure(ConfigureRequest(item: other, scale: five, nowMilliseconds: 0)).created)
        }
    }

    @Test("a batch answers in the order asked, repeats repeated, unknown items not rated", arguments: TestEngine.all)
    func batchOrder(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for (item, stars) in [("b", 2), ("a:1", 5), ("NULL", 3)] {
                _ = try await store.submit(SubmitRequest(item: ItemID(stored: item), rater: RaterID(stored: "r"), stars: stars,
                                                         defaultScale: five, nowMilliseconds: 1))
            }
            let asked = ["b", "a:1", "zzz", "b", "NULL"].map { ItemID(stored: $0) }
            let summaries = try await store.summaries(of: asked, defaultScale: five)
            #expect(summaries.map(\.item.rawValue) == ["b", "a:1", "zzz", "b", "NULL"])
            #expect(summaries.map(\.count) == [1, 1, 0, 1, 1] && summaries.map(\.sum) == [2, 5, 0, 2, 3])
        }
    }

    @Test("10,000 random concurrent upserts and clears leave every aggregate equal to the model's", arguments: TestEngine.durable)
    func randomWritesMatchTheModel(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let model = InMemoryRatingStore()
            var random = SplitMix(state: 42)
            let scales = try (1...10).map { try Scale(maxRating: $0) }
            for _ in 0..<40 {
                // One wave runs concurrently; its (item, rater) pairs differ, so its order cannot
                // change the outcome, and each item's default scale is its own, whoever rates first.
                var wave: [String: (item: Int, rater: Int, stars: Int)] = [:]
                while wave.count < 250 {
                    let item = Int.random(in: 0..<300, using: &random), rater = Int.random(in: 0..<200, using: &random)
                    wave["\(item)/\(rater)"] = (item, rater, Int.random(in: 0...10, using: &random))
                }
                for target in [store, model as any ReviewStore] {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for (item, rater, stars) in wave.values {
                            group.addTask {
                                let itemID = ItemID(stored: "item-\(item)"), raterID = RaterID(stored: "rater-\(rater)")
                                let scale = scales[item % 10]
                                if stars == 0 {
                                    _ = try await target.clear(ClearRequest(item: itemID, rater: raterID, defaultScale: scale, nowMilliseconds: 0))
                                } else {
                                    do {
                                        _ = try await target.submit(SubmitRequest(item: itemID, rater: raterID, stars: stars,
                                                                                  defaultScale: scale, nowMilliseconds: 1))
                                    } catch RatingError.starsOutOfRange {
                                        // expected for stars above the item's scale
                                    }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            }
            let items = (0..<300).map { ItemID(stored: "item-\($0)") }
            let stored = try await store.summaries(of: items, defaultScale: five)
            let expected = try await model.summaries(of: items, defaultScale: five)
            #expect(stored == expected)
            #expect(stored.map(\.count).reduce(0, +) > 1_000, "the waves left a real number of ratings behind")
        }
    }

    @Test("hundreds of concurrent first ratings of one item are all counted", arguments: TestEngine.durable)
    func concurrentFirstRatings(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let item = ItemID(stored: "popular")
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for rater in 0..<500 {
                    group.addTask {
                        try await store.submit(SubmitRequest(item: item, rater: RaterID(stored: "rater-\(rater)"), stars: rater % 5 + 1,
                                                             defaultScale: five, nowMilliseconds: 1)).created
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count == 500 && outcomes.allSatisfy { $0 })
            let summary = try await store.summary(of: item, defaultScale: five)
            #expect(summary.count == 500 && summary.sum == 1_500 && summary.distribution == [100, 100, 100, 100, 100])
        }
    }

    @Test("a read that follows an acknowledged write sees it, while other reads race to fill any cache", arguments: TestEngine.durable)
    func readsFollowWrites(engine: TestEngine) async throws {
        try await withStore(engine) { store in
            let items = (0..<4).map { ItemID(stored: "hot-\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Readers keep every item's row coming back from the file, racing the writer.
                for reader in 0..<4 {
                    group.addTask {
                        for _ in 0..<150 { _ = try await store.summary(of: items[reader], defaultScale: five) }
                    }
                }
                group.addTask {
                    for round in 1...150 {
                        for item in items {
                            _ = try await store.submit(SubmitRequest(item: item, rater: RaterID(stored: "r\(round)"), stars: 3,
                                                                     defaultScale: five, nowMilliseconds: 1))
                            let seen = try await store.summary(of: item, defaultScale: five).count
                            #expect(seen == round, "after the write of round \(round) acknowledged, \(item) read \(seen)")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test("readiness: a working store is ready", arguments: TestEngine.all)
    func ready(engine: TestEngine) async throws {
        try await withStore(engine) { store in try await store.checkReady() }
    }
}
