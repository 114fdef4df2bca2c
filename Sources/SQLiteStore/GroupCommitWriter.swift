import Glibc
import Dispatch
import Locking

/// The single writer. Writes that arrive while a transaction commits wait together and are
/// committed by the next transaction, so many concurrent writers share one WAL sync instead of
/// paying one each (group commit). Every job learns its result only after its COMMIT returned.
final class GroupCommitWriter: Sendable {
    /// The most writes one transaction takes, so one batch cannot hold the lock for long.
    static let maxBatch = 512

    private struct Pending {
        var jobs: [any WriteJob] = []
        var draining = false
    }

    private let queue = DispatchQueue(label: "ratings.sqlite.writer", qos: .userInitiated)
    private let pending = Locked(Pending())
    // Safe: the session is touched only by blocks running on `queue`, which is serial.
    private nonisolated(unsafe) let session: WriteSession

    private let cache: SummaryCache

    init(session: WriteSession, cache: SummaryCache) {
        self.session = session
        self.cache = cache
    }

    /// Queues a write; the job's completion runs on the writer queue after its commit.
    func enqueue(_ job: any WriteJob) {
        let startDrain = pending.withLock { state in
            state.jobs.append(job)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain { queue.async { self.drain() } }
    }

    /// Waits until every write queued so far has been committed or failed.
    func flush() { queue.sync {} }

    /// Waits for the writes queued so far, then empties the WAL into the database file.
    func flushAndEmptyWAL() throws(SQLiteError) {
        try queue.sync { Result { () throws(SQLiteError) in try session.emptyWAL() } }.get()
    }

    private func drain() {
        while true {
            // Let the event loops finish the turn they are in first: on a busy machine they are
            // still reading writes that belong in this transaction, and one commit (one sync)
            // should take them all rather than the first few. Returns at once when they are idle.
            sched_yield()
            let batch: [any WriteJob] = pending.withLock { state in
                let batch = Array(state.jobs.prefix(GroupCommitWriter.maxBatch))
                state.jobs.removeFirst(batch.count)
                if batch.isEmpty { state.draining = false }
                return batch
            }
            if batch.isEmpty { return }
            commit(batch)
        }
    }

    private func commit(_ batch: [any WriteJob]) {
        let transaction = session.transaction
        do {
            try transaction.beginTransaction()
        } catch {
            batch.forEach { $0.finish(failure: error) }
            return
        }
        do {
            for job in batch { try job.execute(in: session) }
            try transaction.commitTransaction()
        } catch {
            try? transaction.rollbackTransaction()
            cache.forget(session.takeChangedRows().keys)
            batch.forEach { $0.finish(failure: error) }
            return
        }
        // The cache learns the committed rows before any write is acknowledged, so a read that
        // follows an acknowledgement sees the write.
        cache.committed(session.takeChangedRows())
        batch.forEach { $0.finish(failure: nil) }
    }
}
