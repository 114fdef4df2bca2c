import RatingsCore
@testable import SQLiteStore
import TestSupport
import Dispatch
import Testing

/// Another process's lock, stood in for by a second connection.
// Safe: the connection is used by the test, then by one delayed block, never at the same time.
private final class LockHolder: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}

private let five = Scale.standard

private func ids(_ item: String, _ rater: String) -> (ItemID, RaterID) {
    (ItemID(stored: item), RaterID(stored: rater))
}

@Suite("SQLite store behaviour")
struct StoreBehaviourTests {
    @Test("submit creates, then replaces, and the summary follows")
    func submitCreatesThenReplaces() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: dir.file("db.sqlite")))
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

    @Test("stars beyond the item's scale are refused and nothing is written")
    func rejectsStarsAboveScale() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: dir.file("db.sqlite")))
        let (item, rater) = ids("tiny", "r")
        _ = try await store.configure(ConfigureRequest(item: item, scale: try Scale(maxRating: 3)))
        await #expect(throws: RatingError.starsOutOfRange(given: "4", scale: try Scale(maxRating: 3))) {
            try await store.submit(SubmitRequest(item: item, rater: rater, stars: 4, defaultScale: five, nowMilliseconds: 1))
        }
        #expect(try await store.rating(of: item, by: rater, defaultScale: five) == nil)
        #expect(try await store.summary(of: item, defaultScale: five).count == 0)
    }

    @Test("the first rating fixes the default scale, which stays after every rating is cleared")
    func firstRatingFixesScale() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: dir.file("db.sqlite")))
        let (item, rater) = ids("soup", "r")
        let seven = try Scale(maxRating: 7)
        _ = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 6, defaultScale: seven, nowMilliseconds: 1))
        let cleared = try await store.clear(ClearRequest(item: item, rater: rater, defaultScale: five))
        #expect(cleared.cleared && cleared.summary.count == 0 && cleared.summary.scale == seven)
        #expect(try await store.summary(of: item, defaultScale: five).scale == seven)
        let again = try await store.clear(ClearRequest(item: item, rater: rater, defaultScale: five))
        #expect(!again.cleared)
        #expect(try await store.summary(of: ItemID(stored: "never"), defaultScale: five) == .empty(ItemID(stored: "never"), on: five))
    }

    @Test("configuring: 201-style first time, 200-style after, conflict when ratings exist on another scale")
    func configureRules() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: dir.file("db.sqlite")))
        let (item, rater) = ids("cake", "r")
        let three = try Scale(maxRating: 3)
        #expect(try await store.configure(ConfigureRequest(item: item, scale: three)).created)
        #expect(try await !store.configure(ConfigureRequest(item: item, scale: three)).created)
        _ = try await store.submit(SubmitRequest(item: item, rater: rater, stars: 2, defaultScale: five, nowMilliseconds: 1))
        await #expect(throws: RatingError.scaleConflict(current: three, requested: five, ratingCount: 1)) {
            try await store.configure(ConfigureRequest(item: item, scale: five))
        }
        #expect(try await !store.configure(ConfigureRequest(item: item, scale: three)).created)
        // An item whose scale came from its first rating has no explicit scale yet.
        let (other, _) = ids("pie", "r")
        _ = try await store.submit(SubmitRequest(item: other, rater: rater, stars: 2, defaultScale: five, nowMilliseconds: 1))
        #expect(try await store.configure(ConfigureRequest(item: other, scale: five)).created)
    }

    @Test("a second store on the same file waits for the lock instead of failing")
    func secondConnectionWaitsForLock() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        let blocker = LockHolder(try SQLiteConnection(path: path))
        try blocker.connection.execute("BEGIN IMMEDIATE")
        // A plain thread, not a task: the cooperative pool may be busy with other tests.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { try? blocker.connection.execute("COMMIT") }
        let outcome = try await store.submit(SubmitRequest(item: ItemID(stored: "a"), rater: RaterID(stored: "b"),
                                                           stars: 3, defaultScale: five, nowMilliseconds: 1))
        #expect(outcome.created)
    }
}
