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
        // A plain thread, not a task: the cooperative pool may be busy with other tests.
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { try? blocker.connection.execute("COMMIT") }
        let outcome = try await store.submit(SubmitRequest(item: ItemID(stored: "a"), rater: RaterID(stored: "b"),
                                                           stars: 3, defaultScale: five, nowMilliseconds: 1))
        #expect(outcome.created)
    }
}
