import Dispatch
import Locking
import RatingsCore

/// Makes the writer's commits durable and only then acknowledges them. The writer commits without
/// a sync of its own (`synchronous = NORMAL`) and hands each committed transaction here; this
/// thread, `sqlite-sync`, syncs the WAL once for every transaction waiting, puts their rows in the
/// summary cache and hands every write its result. Meanwhile the writer runs the next
/// transaction's SQL, where with `synchronous = FULL` it would wait for the disk at every COMMIT.
/// An acknowledged write is as durable as with FULL: its frames were synced before its answer.
final class CommitSyncer: Sendable {
    /// A committed transaction waiting for its frames to be durable.
    struct Group: Sendable {
        let jobs: [WriteJob]
        /// The rows and review lists it changed, for the cache.
        let changes: ItemChanges
        /// How many groups the writer has handed over, this one included.
        let number: Int
    }

    private enum Work: Sendable {
        case group(Group)
        /// Signalled once every group handed over before it has been acknowledged.
        case marker(DispatchSemaphore)
    }

    private let queue: WorkQueue<Work>
    private let thread: JoinableThread

    /// `synced` is called on this thread with a group's `number` once it and every group before it
    /// have been acknowledged.
    init(wal: any WALSyncing, cache: SummaryCache, synced: @escaping @Sendable (Int) -> Void) throws(ThreadStartError) {
        let queue = WorkQueue<Work>()
        self.queue = queue
        thread = try JoinableThread.start(name: "sqlite-sync") {
            Self.run(queue, wal: wal, cache: cache, synced: synced)
        }
    }

    /// Queues a committed group; false once `close` was called (the caller fails its writes).
    func hand(_ group: Group) -> Bool { queue.put(.group(group)) }

    /// Waits until every group handed over so far has been acknowledged.
    func waitForHandedGroups() {
        let done = DispatchSemaphore(value: 0)
        guard queue.put(.marker(done)) else { return }
        done.wait()
    }

    /// Takes no more groups; the thread acknowledges those queued, then ends.
    func close() { queue.close() }

    /// Waits for the thread to end (after `close`); fails harmlessly with EDEADLK on the thread itself.
    func join() { thread.join() }

    /// The most groups one sync covers: all that wait, in practice (the writer hands over one
    /// while the last is being synced, a few more only when its transaction fills up).
    private static let maxGroups = 1_024

    private static func run(_ queue: WorkQueue<Work>, wal: any WALSyncing, cache: SummaryCache, synced: @Sendable (Int) -> Void) {
        var groups: [Group] = []
        var markers: [DispatchSemaphore] = []
        while true {
            let batch = queue.take(upTo: maxGroups, beforeTaking: {})
            if batch.isEmpty { return }
            for work in batch {
                switch work {
                case .group(let group): groups.append(group)
                case .marker(let done): markers.append(done)
                }
            }
            if let last = groups.last {
                acknowledge(groups, failure: syncFailure(wal), cache: cache)
                synced(last.number)
                groups.removeAll(keepingCapacity: true)
            }
            markers.forEach { $0.signal() }
            markers.removeAll(keepingCapacity: true)
        }
    }

    private static func syncFailure(_ wal: any WALSyncing) -> SQLiteError? {
        do {
            try wal.sync()
            return nil
        } catch {
            return error
        }
    }

    /// After a failed sync the writes are committed but perhaps not durable: each fails (503,
    /// "retry": every write is idempotent), and the cache forgets their rows, so reads go to the file.
    private static func acknowledge(_ groups: [Group], failure: SQLiteError?, cache: SummaryCache) {
        for group in groups {
            // The cache learns the rows before any write is acknowledged, so a read that follows
            // an acknowledgement sees the write.
            if failure == nil { cache.committed(group.changes) } else { cache.forget(group.changes) }
        }
        // Every result is handed out before any event loop is woken, so each loop wakes once
        // and takes its share at once.
        DeferredWakeups.deferring {
            for group in groups { group.jobs.forEach { $0.finish(failure: failure) } }
        }
    }
}
