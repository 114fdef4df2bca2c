internal import CSQLite
import Dispatch
import Glibc
import Locking

/// The single writer. Writes that arrive while a transaction commits wait together and are
/// committed by the next transaction, so many concurrent writers share one WAL sync instead of
/// paying one each (group commit). Every job learns its result only after its COMMIT returned.
///
/// The writer has a thread of its own, `sqlite-writer`, so `top -H`, `ps -T` and `perf` show the
/// time writes take apart from the readers' and the checkpointer's (Dispatch's threads).
final class GroupCommitWriter: Sendable {
    /// The most writes one transaction takes, so one batch cannot hold the lock for long.
    static let maxBatch = 512

    /// What the writer's thread takes from its queue, in order.
    private enum Work: Sendable {
        case write(WriteJob)
        /// Runs on the writer's thread once every write queued before it has committed or failed.
        case barrier(@Sendable (WriteSession) -> Void)
    }

    private let queue: WorkQueue<Work>
    /// Joined by `stop`, or else by deinit.
    private let thread: JoinableThread

    init(session: WriteSession, cache: SummaryCache) throws(ThreadStartError) {
        // The thread holds the queue, the session and the cache, not the writer, so dropping the
        // writer ends the thread (deinit).
        let queue = WorkQueue<Work>()
        self.queue = queue
        // Safe: from here on only the writer's thread touches the session.
        nonisolated(unsafe) let session = session
        thread = try JoinableThread.start(name: "sqlite-writer") {
            Self.run(queue, session: session, cache: cache)
        }
    }

    deinit {
        queue.close()
        // Fails with EDEADLK, harmlessly, when the last reference went on the writer's thread
        // itself (a completion holding the store): it ends by itself once it returns there, the
        // queue being closed.
        thread.join()
    }

    /// Queues a write; the job's completion runs on the writer's thread after its commit. It must
    /// hand its result on rather than wait for an event loop: the loops are woken only once every
    /// completion of the commit has run.
    func enqueue(_ job: WriteJob) {
        if !queue.put(.write(job)) {
            job.finish(failure: SQLiteError(code: SQLITE_MISUSE, operation: "group commit", message: "the store has stopped"))
        }
    }

    /// Waits until every write queued so far has been committed or failed.
    func flush() {
        runAfterQueuedWrites { _ in }
    }

    /// Waits for the writes queued so far and empties the WAL into the database file; writes
    /// queued after that fail at once, and the writer's thread ends.
    func stop() throws(SQLiteError) {
        let outcome = Locked<Result<Void, SQLiteError>>(.success(()))
        runAfterQueuedWrites { session in
            let result = Result { () throws(SQLiteError) in try session.emptyWAL() }
            outcome.withLock { $0 = result }
        }
        queue.close()
        // Once joined, the thread has let go of the session and its connection: nothing of the
        // writer runs on while the process goes on to exit.
        thread.join()
        try outcome.withLock { $0 }.get()
    }

    /// Runs `body` on the writer's thread after the writes queued so far, and waits for it; at
    /// once, without running it, when the writer has stopped.
    private func runAfterQueuedWrites(_ body: @escaping @Sendable (WriteSession) -> Void) {
        let done = DispatchSemaphore(value: 0)
        guard queue.put(.barrier({ session in body(session); done.signal() })) else { return }
        done.wait()
    }

    private static func run(_ queue: WorkQueue<Work>, session: WriteSession, cache: SummaryCache) {
        var writes: [WriteJob] = []
        while true {
            // Let the event loops finish the turn they are in first: on a busy machine they are
            // still reading writes that belong in this transaction, and one commit (one sync)
            // should take them all rather than the first few. Returns at once when they are idle.
            let batch = queue.take(upTo: maxBatch, beforeTaking: { sched_yield() })
            if batch.isEmpty { return }
            for work in batch {
                switch work {
                case .write(let job):
                    writes.append(job)
                case .barrier(let body):
                    commit(&writes, session: session, cache: cache)
                    body(session)
                }
            }
            commit(&writes, session: session, cache: cache)
        }
    }

    /// Commits `batch`, hands every job its result, and empties `batch` for the next.
    private static func commit(_ batch: inout [WriteJob], session: WriteSession, cache: SummaryCache) {
        guard !batch.isEmpty else { return }
        let failure = commitOrRollBack(batch, session: session, cache: cache)
        // Every result is handed out before any event loop is woken, so each loop wakes once
        // and takes its share of the batch at once.
        DeferredWakeups.deferring {
            batch.forEach { $0.finish(failure: failure) }
        }
        batch.removeAll(keepingCapacity: true)
    }

    /// Runs the batch in one transaction; nil once it committed, else why it did not.
    private static func commitOrRollBack(_ batch: [WriteJob], session: WriteSession, cache: SummaryCache) -> SQLiteError? {
        let transaction = session.transaction
        do {
            try transaction.beginTransaction()
        } catch {
            return error
        }
        do {
            for job in batch { try job.execute(in: session) }
            try transaction.commitTransaction()
        } catch {
            try? transaction.rollbackTransaction()
            session.consumeChangedRows { cache.forget($0.keys) }
            return error
        }
        // The cache learns the committed rows before any write is acknowledged, so a read that
        // follows an acknowledgement sees the write.
        session.consumeChangedRows(cache.committed)
        return nil
    }
}
