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
