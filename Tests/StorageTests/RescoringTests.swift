import PostgresStore
import RatingsCore
import SQLiteStore
import TestSupport
import Testing

private func settings(_ prior: String, _ weight: Int) throws -> RankingSettings {
    try RankingSettings.parse(prior: prior, weight: weight).get()
}

/// Two items whose order flips with the weight: one rating of 5 stars against ten of 4 stars.
private func seed(_ store: any ReviewStore) async throws {
    _ = try await store.submit(SubmitRequest(item: ItemID(stored: "one-five"), rater: RaterID(stored: "a"), stars: 5,
                                             defaultScale: .standard, nowMilliseconds: 1))
    for rater in 0..<10 {
        _ = try await store.submit(SubmitRequest(item: ItemID(stored: "ten-fours"), rater: RaterID(stored: "r\(rater)"), stars: 4,
                                                 defaultScale: .standard, nowMilliseconds: 1))
    }
}

@Suite("Changing the ranking settings re-scores once at start-up")
struct RescoringTests {
    @Test("SQLite: the stored order follows the settings the store was opened with")
    func sqlite() async throws {
        let directory = try TemporaryDirectory("ratings-rescore")
        defer { directory.remove() }
        var configuration = SQLiteStoreConfiguration(path: directory.file("db.sqlite"))
        configuration.ranking = try settings("0.5", 0) // W = 0: the plain average share wins
        do {
            let store = try SQLiteRatingStore(configuration)
            try await seed(store)
            #expect(try await store.topRanked(after: nil, limit: 5).items.map(\.item.rawValue) == ["one-five", "ten-fours"])
            store.flush()
        }
        configuration.ranking = try settings("0.5", 100) // a heavy prior: many ratings win
        let reopened = try SQLiteRatingStore(configuration)
        #expect(try await reopened.topRanked(after: nil, limit: 5).items.map(\.item.rawValue) == ["ten-fours", "one-five"])
    }

    @Test("PostgreSQL: the same")
    func postgresql() async throws {
        var configuration = PostgresConfiguration(uri: try PostgresCluster.shared().freshDatabaseURI())
        configuration.ranking = try settings("0.5", 0)
        let store = try PostgresRatingStore(configuration)
        try await seed(store)
        #expect(try await store.topRanked(after: nil, limit: 5).items.map(\.item.rawValue) == ["one-five", "ten-fours"])
        store.close()
        configuration.ranking = try settings("0.5", 100)
        let reopened = try PostgresRatingStore(configuration)
        defer { reopened.close() }
        #expect(try await reopened.topRanked(after: nil, limit: 5).items.map(\.item.rawValue) == ["ten-fours", "one-five"])
    }
}
