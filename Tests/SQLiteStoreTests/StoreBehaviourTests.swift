import RatingsCore
@testable import SQLiteStore
import TestSupport
import Foundation
import Testing

/// Another process's lock, stood in for by a second connection.
// Safe: the connection is used by the test, then by one delayed block, never at the same time.
private final class LockHolder: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}

private let five = Scale.standard

@Suite("SQLite store behaviour")
struct StoreBehaviourTests {
    @Test("a second store on the same file waits for the lock instead of failing")
    func secondConnectionWaitsForLock() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        let blocker = LockHolder(try SQLiteConnection(path: path))
        try blocker.connection.execute("BEGIN IMMEDIATE")
        OwnThread.run(afterMilliseconds: 300) { try? blocker.connection.execute("COMMIT") }
        let outcome = try await store.submit(SubmitRequest(item: ItemID(stored: "a"), rater: RaterID(stored: "b"),
                                                           stars: 3, defaultScale: five, nowMilliseconds: 1))
        #expect(outcome.created)
    }

    @Test("a clean stop keeps every write acknowledged before it, and a write after it fails at once, saying the store has stopped")
    func writeAfterStopFails() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let store = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        let rating = { (rater: String) in
            SubmitRequest(item: ItemID(stored: "a"), rater: RaterID(stored: rater), stars: 4, defaultScale: five, nowMilliseconds: 1)
        }
        _ = try await store.submit(rating("before"))
        try store.stop()
        do {
            _ = try await store.submit(rating("after"))
            Issue.record("a write after the stop was accepted")
        } catch let error as SQLiteError {
            #expect(error.message == "the store has stopped")
        }
        let reopened = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        #expect(try await reopened.summary(of: ItemID(stored: "a"), defaultScale: five).count == 1)
    }

    @Test("a clean stop closes every connection of the store, the readers' and the checkpointer's too, so SQLite removes the -wal and -shm files")
    func stopRemovesTheWALFiles() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        var configuration = SQLiteStoreConfiguration(path: path)
        configuration.checkpointIntervalMilliseconds = 10
        let store = try SQLiteRatingStore(configuration)
        for rater in ["r1", "r2", "r3"] {
            _ = try await store.submit(SubmitRequest(item: ItemID(stored: "a"), rater: RaterID(stored: rater), stars: 4,
                                                     defaultScale: five, nowMilliseconds: 1))
        }
        // Reads on pooled connections, and time for the checkpointer to tick on its own.
        #expect(try await store.rating(of: ItemID(stored: "a"), by: RaterID(stored: "r2"), defaultScale: five)?.stars.count == 4)
        try await store.checkReady()
        try await Task.sleep(for: .milliseconds(50))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.stop()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        // Reads still work after the stop, each on a connection of its own.
        #expect(try await store.rating(of: ItemID(stored: "a"), by: RaterID(stored: "r3"), defaultScale: five)?.stars.count == 4)
    }
}

@Suite("SQLite: an item's review-list version")
struct ReviewListVersionTests {
    @Test("it stays while nothing changes the item's lists and moves with every write that does; a store that shares its file keeps none")
    func moves() async throws {
        let directory = try TemporaryDirectory("ratings-versions")
        defer { directory.remove() }
        var configuration = SQLiteStoreConfiguration(path: directory.file("ratings.sqlite"))
        configuration.claimsFile = true
        let store = try SQLiteRatingStore(configuration)
        defer { try? store.stop() }
        let soup = ItemID(stored: "soup"), five = Scale.standard
        func version() throws -> UInt64 { try #require(store.reviewListVersion(of: soup)) }
        var seen = [try version()]
        func expectMoved(_ what: String) throws {
            let now = try version()
            #expect(!seen.contains(now), "\(what)")
            seen.append(now)
        }
        func expectKept(_ what: String) throws { #expect(try version() == seen.last, "\(what)") }

        _ = try await store.submit(SubmitRequest(item: soup, rater: RaterID(stored: "a"), stars: 4, defaultScale: five, nowMilliseconds: 1))
        try expectKept("a rating without a review")
        _ = try await store.writeReview(ReviewWriteRequest(item: soup, rater: RaterID(stored: "a"), stars: 4, title: nil, body: "x",
                                                           language: nil, defaultScale: five, policy: .standard, nowMilliseconds: 2))
        try expectMoved("a review")
        _ = try await store.submit(SubmitRequest(item: soup, rater: RaterID(stored: "a"), stars: 4, defaultScale: five, nowMilliseconds: 3))
        try expectKept("the same stars again")
        _ = try await store.submit(SubmitRequest(item: soup, rater: RaterID(stored: "a"), stars: 2, defaultScale: five, nowMilliseconds: 4))
        try expectMoved("other stars for a reviewed rating")
        _ = try await store.vote(VoteRequest(item: soup, rater: RaterID(stored: "a"), voter: RaterID(stored: "v"), helpful: true))
        try expectMoved("a vote")
        _ = try await store.erase(RaterID(stored: "v"))
        try expectMoved("erasing the voter")
        _ = try await store.removeReview(ClearRequest(item: soup, rater: RaterID(stored: "a"), defaultScale: five, nowMilliseconds: 0))
        try expectMoved("removing the review")
        _ = try await store.writeReview(ReviewWriteRequest(item: soup, rater: RaterID(stored: "a"), stars: 4, title: nil, body: "y",
                                                           language: nil, defaultScale: five, policy: .standard, nowMilliseconds: 5))
        try expectMoved("a second review")
        _ = try await store.clear(ClearRequest(item: soup, rater: RaterID(stored: "a"), defaultScale: five, nowMilliseconds: 0))
        try expectMoved("clearing the reviewed rating")

        configuration.claimsFile = false
        store.flush()
        try store.stop()
        let shared = try SQLiteRatingStore(configuration)
        defer { try? shared.stop() }
        #expect(shared.reviewListVersion(of: soup) == nil)
    }
}
