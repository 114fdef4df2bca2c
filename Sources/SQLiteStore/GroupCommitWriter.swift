internal import CSQLite
import Dispatch
import Glibc
import Locking

/// The single writer. Writes that arrive while the last commit is being synced join the
/// transaction under way, which commits once that sync is done, so many concurrent writers share
/// one WAL sync instead of paying one each (group commit). The sync itself is the `CommitSyncer`'s
/// work, on a thread of its own: the writer runs the SQL of the next group meanwhile, and a job
/// learns its result only after the WAL frames of its commit are durable.
///
/// The writer has a thread of its own, `sqlite-writer`, so `top -H`, `ps -T` and `perf` show the
/// time writes take apart from the syncer's, the readers' and the checkpointer's (Dispatch's threads).
final class GroupCommitWriter: Sendable {
    /// The most writes one transaction takes, so one group cannot hold the lock for long.
    static let maxBatch = 512

    /// What the writer's thread takes from its queue, in order.
    private enum Work: Sendable {
        case write(WriteJob)
        /// Runs on the writer's thread once every write queued before it has been acknowledged or failed.
        case barrier(@Sendable (WriteSession) -> Void)
        /// The syncer acknowledged every group up to this number.
        case synced(Int)
    }

    private let queue: WorkQueue<Work>
    /// Joined by `stop`, or else by deinit.
    private let thread: JoinableThread
    private let syncer: CommitSyncer

    /// `session`'s connection must commit without syncing (`synchronous = NORMAL`): `wal` syncs.
    init(session: WriteSession, wal: any WALSyncing, cache: SummaryCache) throws(ThreadStartError) {
        // The threads hold the queue, the session and the cache, not the writer, so dropping the
        // writer ends them (deinit).
        let queue = WorkQueue<Work>()
        self.queue = queue
        let syncer = try CommitSyncer(wal: wal, cache: cache, synced: { queue.put(.synced($0)) })
        self.syncer = syncer
        // Safe: from here on only the writer's thread touches the session.
        nonisolated(unsafe) let session = session
        thread = try JoinableThread.start(name: "sqlite-writer") {
            var writer = Transactions(session: session, syncer: syncer, cache: cache)
            writer.run(queue)
        }
    }

    deinit {
        queue.close()
        // Each join fails with EDEADLK, harmlessly, when the last reference went on that thread
        // itself (a completion holding the store, on the syncer's): it ends by itself once it
        // returns there, its queue being closed.
        thread.join()
        syncer.close()
        syncer.join()
    }

    /// Queues a write; the job's completion runs on the syncer's thread once its commit is durable
    /// (on the writer's when its transaction fails). It must hand its result on rather than wait
    /// for an event loop: the loops are woken only once every completion of the group has run.
    func enqueue(_ job: WriteJob) {
        if !queue.put(.write(job)) {
            job.finish(failure: SQLiteError(code: SQLITE_MISUSE, operation: "group commit", message: "the store has stopped"))
        }
    }

    /// Waits until every write queued so far has been acknowledged or failed.
    func flush() {
        runAfterQueuedWrites { _ in }
    }

    /// Waits for the writes queued so far and empties the WAL into the database file; writes
    /// queued after that fail at once, and the writer's and syncer's threads end.
    func stop() throws(SQLiteError) {
        let outcome = Locked<Result<Void, SQLiteError>>(.success(()))
        runAfterQueuedWrites { session in
            let result = Result { () throws(SQLiteError) in try session.emptyWAL() }
            outcome.withLock { $0 = result }
        }
        queue.close()
        // Once joined, the threads have let go of the session and its connection: nothing of the
        // writer runs on while the process goes on to exit.
        thread.join()
        syncer.join()
        try outcome.withLock { $0 }.get()
    }

    /// Runs `body` on the writer's thread after the writes queued so far, and waits for it; at
    /// once, without running it, when the writer has stopped.
    private func runAfterQueuedWrites(_ body: @escaping @Sendable (WriteSession) -> Void) {
        let done = DispatchSemaphore(value: 0)
        guard queue.put(.barrier({ session in body(session); done.signal() })) else { return }
        done.wait()
    }

    /// The writer's thread: the transaction under way and what the syncer has acknowledged.
    private struct Transactions {
        let session: WriteSession
        let syncer: CommitSyncer
        let cache: SummaryCache
        /// The writes executed in the open transaction; none when no transaction is open.
        var open: [WriteJob] = []
        /// Groups handed to the syncer, and how many of them it has acknowledged.
        var handed = 0
        var synced = 0

        mutating func run(_ queue: WorkQueue<Work>) {
            while true {
                // Let the event loops finish the turn they are in first: on a busy machine they are
                // still reading writes that belong in this transaction. Returns at once when they are idle.
                let batch = queue.take(upTo: maxBatch, beforeTaking: { sched_yield() })
                if batch.isEmpty { break }
                for work in batch {
                    switch work {
                    case .write(let job):
                        execute(job)
                        if open.count >= maxBatch { commit() }
                    case .synced(let number):
                        synced = max(synced, number)
                    case .barrier(let body):
                        commit()
                        syncer.waitForHandedGroups()
                        synced = handed
                        body(session)
                    }
                }
                // While the syncer syncs, the transaction stays open and takes the writes that
                // arrive; it commits once the syncer is free, as one group.
                if synced == handed { commit() }
            }
            commit()
            syncer.close()
        }

        /// Runs `job` in the open transaction, opening one first when none is; on a failure the
        /// whole transaction rolls back and each of its writes fails.
        private mutating func execute(_ job: WriteJob) {
            open.append(job)
            do {
                if open.count == 1 { try session.transaction.beginTransaction() }
                try job.execute(in: session)
            } catch {
                rollBack(failure: error)
            }
        }

        /// Commits the open transaction, if any, and hands it to the syncer.
        private mutating func commit() {
            guard !open.isEmpty else { return }
            do {
                try session.flushOutbox()
                try session.transaction.commitTransaction()
            } catch {
                return rollBack(failure: error)
            }
            handed += 1
            let group = CommitSyncer.Group(jobs: open, changes: session.takeChanges(), number: handed)
            open = []
            if !syncer.hand(group) {
                // Only when the writer is dropped with writes queued on the syncer's own thread.
                let failure = SQLiteError(code: SQLITE_MISUSE, operation: "group commit", message: "the store has stopped")
                group.jobs.forEach { $0.finish(failure: failure) }
            }
        }

        private mutating func rollBack(failure: SQLiteError) {
            try? session.transaction.rollbackTransaction()
            cache.forget(session.takeChanges())
            DeferredWakeups.deferring {
                open.forEach { $0.finish(failure: failure) }
            }
            open.removeAll(keepingCapacity: true)
        }
    }
}
