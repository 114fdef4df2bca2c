import Dispatch
import Glibc
import Locking
import RatingsCore
@testable import SQLiteStore
import TestSupport
import Testing

/// A migrated database in a fresh directory, for a pool of its own.
private func database(_ directory: TemporaryDirectory) throws -> String {
    let path = directory.file("ratings.sqlite")
    _ = try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
    return path
}

/// Reads that run until the test lets them go, counting how many run at once.
private final class HeldReads: Sendable {
    private struct State {
        var running = 0
        var mostAtOnce = 0
        var released = false
    }

    private let state = Locked(State())
    var running: Int { state.withLock { $0.running } }
    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    func release() { state.withLock { $0.released = true } }

    func body(_ reader: ReadConnection) throws -> Int {
        state.withLock { state in
            state.running += 1
            state.mostAtOnce = max(state.mostAtOnce, state.running)
        }
        defer { state.withLock { $0.running -= 1 } }
        while !state.withLock({ $0.released }) { usleep(1_000) }
        try reader.ping()
        return 1
    }
}

@Suite("SQLite readers: a bounded number at once, the rest waiting their turn within a deadline")
struct ReaderPoolTests {
    @Test("at most maxReaders reads run at once; the others run, in turn, once places free up")
    func boundsConcurrentReads() async throws {
        let directory = try TemporaryDirectory("ratings-readers")
        defer { directory.remove() }
        // No deadline this test could meet by being slow (a ThreadSanitizer build on a busy machine).
        let pool = ReaderPool(path: try database(directory), busyTimeoutMilliseconds: 1_000, maxIdle: 2, maxReaders: 2, queueTimeoutSeconds: 3_600)
        let held = HeldReads()
        let results = Locked<[Result<Int, any Error>]>([])
        for _ in 0..<20 { pool.read({ result in results.withLock { $0.append(result) } }) { try held.body($0) } }
        #expect(eventually { held.running == 2 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(held.running == 2 && results.withLock { $0.isEmpty }, "18 reads wait for the two places")
        held.release()
        #expect(eventually { results.withLock { $0.count } == 20 })
        let failures = results.withLock { $0 }.compactMap { result -> String? in
            if case .failure(let error) = result { return "\(error)" } else { return nil }
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(held.mostAtOnce == 2)
    }

    @Test("a read that waited past the queue deadline fails with a storage error instead of running")
    func waitingPastTheDeadlineFails() async throws {
        let directory = try TemporaryDirectory("ratings-readers")
        defer { directory.remove() }
        let pool = ReaderPool(path: try database(directory), busyTimeoutMilliseconds: 1_000, maxIdle: 1, maxReaders: 1, queueTimeoutSeconds: 0.2)
        let held = HeldReads()
        let first = Locked<Result<Int, any Error>?>(nil), second = Locked<Result<Int, any Error>?>(nil)
        pool.read({ result in first.withLock { $0 = result } }) { try held.body($0) }
        #expect(eventually { held.running == 1 })
        let ranSecond = Locked(false)
        pool.read({ result in second.withLock { $0 = result } }) { _ in ranSecond.withLock { $0 = true }; return 2 }
        try await Task.sleep(for: .milliseconds(400))
        held.release()
        #expect(eventually { second.withLock { $0 } != nil })
        #expect((try? first.withLock { $0 }?.get()) == 1)
        #expect(!ranSecond.withLock { $0 }, "the read past its deadline did not run")
        let failure = second.withLock { $0 }.flatMap { result -> SQLiteError? in
            if case .failure(let error) = result { return error as? SQLiteError } else { return nil }
        }
        #expect(failure?.operation == "read queue", "\(String(describing: failure))")
        // The place is free again: the next read runs at once.
        let third = Locked<Int?>(nil)
        pool.read({ result in third.withLock { $0 = try? result.get() } }) { reader in
            try reader.ping()
            return 3
        }
        #expect(eventually { third.withLock { $0 } == 3 })
    }
}
