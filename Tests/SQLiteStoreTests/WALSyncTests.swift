import Glibc
import Locking
import RatingsCore
@testable import SQLiteStore
import TestSupport
import Testing

/// A WAL sync the test holds back or makes fail, counting the calls; it stands in for `WALFile`.
private final class HeldSync: WALSyncing {
    private struct State {
        var open = false
        var failing = false
        var calls = 0
    }

    private let state = Locked(State())

    var calls: Int { state.withLock { $0.calls } }
    func open() { state.withLock { $0.open = true } }
    func fail(_ failing: Bool) { state.withLock { $0.failing = failing } }

    func sync() throws(SQLiteError) {
        state.withLock { $0.calls += 1 }
        while !state.withLock({ $0.open }) { usleep(1_000) }
        if state.withLock({ $0.failing }) {
            throw SQLiteError(code: 1034, operation: "fdatasync (test)", message: "Input/output error")
        }
    }
}

private let item = ItemID(stored: "item")

private func rating(by rater: String, _ stars: Int = 4) -> SubmitRequest {
    SubmitRequest(item: item, rater: RaterID(stored: rater), stars: stars, defaultScale: .standard, nowMilliseconds: 1)
}

/// A store that claims its file, so its summary cache is on, with `sync` standing in for its WAL's.
private func store(in dir: TemporaryDirectory, sync: HeldSync) throws -> SQLiteRatingStore {
    var configuration = SQLiteStoreConfiguration(path: dir.file("db.sqlite"))
    configuration.claimsFile = true
    return try SQLiteRatingStore(configuration, wal: { _ in sync })
}

@Suite("The WAL sync: a write is acknowledged only once its commit is durable")
struct WALSyncTests {
    @Test("a write is answered only after the WAL sync that follows its COMMIT, the cache shows it no earlier, and writes arriving during that sync share the next one")
    func answeredAfterTheSync() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sync = HeldSync()
        let store = try store(in: dir, sync: sync)
        let answered = Locked<[String: Bool]>([:])
        func submit(_ rater: String) {
            store.submit(rating(by: rater)) { result in answered.withLock { $0[rater] = (try? result.get()) != nil } }
        }

        submit("first")
        #expect(eventually { sync.calls == 1 }, "the commit is followed by a sync")
        let file = try SQLiteConnection(path: dir.file("db.sqlite"))
        #expect(try file.scalarText("SELECT count(*) FROM ratings") == "1", "committed to the file before the sync")
        for rater in ["second", "third", "fourth"] { submit(rater) }
        usleep(200_000)
        #expect(answered.withLock { $0.isEmpty }, "nothing is answered while its sync is held back")
        #expect(store.cachedSummary(of: item, defaultScale: .standard) == nil, "the cache learns the row only once it is durable")

        sync.open()
        #expect(eventually { answered.withLock { $0.count } == 4 })
        #expect(answered.withLock { $0.values.allSatisfy { $0 } })
        #expect(sync.calls == 2, "the three writes that arrived during the first sync were committed and synced together")
        #expect(store.cachedSummary(of: item, defaultScale: .standard)?.count == 4)
        try store.stop()
    }

    @Test("a failed WAL sync fails every write it covered with a storage error, the cache forgets their rows, and retrying the write is safe")
    func failedSync() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let sync = HeldSync()
        sync.open()
        let store = try store(in: dir, sync: sync)
        _ = try await store.submit(rating(by: "kept", 2))
        #expect(store.cachedSummary(of: item, defaultScale: .standard)?.count == 1)

        sync.fail(true)
        await #expect(throws: SQLiteError.self) { try await store.submit(rating(by: "unsynced", 5)) }
        #expect(store.cachedSummary(of: item, defaultScale: .standard) == nil, "no cached row outlives a failed sync")

        sync.fail(false)
        // The failed write was committed, only its durability is unknown: the retry replaces it.
        let retried = try await store.submit(rating(by: "unsynced", 5))
        #expect(!retried.created)
        #expect(retried.summary.count == 2)
        #expect(try await store.summary(of: item, defaultScale: .standard).count == 2)
        try store.stop()
    }
}
