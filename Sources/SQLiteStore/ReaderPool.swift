import Dispatch
import Locking
import Platform
import RatingsCore

/// Read connections lent to one read at a time, on the pool's own threads: a read may wait on
/// the disk, so it never runs on the caller's. At most `maxReaders` reads run at once, each on a
/// connection of its own (so a slow disk costs a bounded number of threads and connections);
/// further reads wait in order, and one that has waited `queueTimeoutSeconds` fails with a
/// storage error (503) rather than wait on. Idle connections are kept for reuse, at most
/// `maxIdle` of them.
final class ReaderPool: Sendable {
    /// A read waiting for a place: its work, and when it stops waiting.
    private struct Waiting {
        let deadline: Double
        let run: @Sendable (_ timedOut: Bool) -> Void
    }

    private struct State {
        var idle: [ReadConnection] = []
        /// Reads running now, on the queue.
        var running = 0
        /// Reads waiting for a place, oldest first from `next`.
        var waiting: [Waiting] = []
        var next = 0
        /// Set by `close`: connections are closed after each read instead of kept.
        var closed = false
    }

    private let path: String
    private let busyTimeoutMilliseconds: Int32
    private let maxIdle: Int
    private let maxReaders: Int
    private let queueTimeoutSeconds: Double
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "ratings.sqlite.readers", qos: .userInitiated, attributes: .concurrent)

    init(path: String, busyTimeoutMilliseconds: Int32, maxIdle: Int, maxReaders: Int, queueTimeoutSeconds: Double) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxIdle = maxIdle
        self.maxReaders = max(1, maxReaders)
        self.queueTimeoutSeconds = queueTimeoutSeconds
    }

    /// Runs `body` with a connection on the pool's threads and delivers its result to `completion`.
    func read<T>(_ completion: @escaping StoreCompletion<T>, _ body: @escaping @Sendable (ReadConnection) throws -> T) {
        let run: @Sendable (Bool) -> Void = { [self] timedOut in
            guard !timedOut else {
                return completion(.failure(SQLiteError(code: 5, operation: "read queue",
                                                       message: "no read connection was free within \(queueTimeoutSeconds) s")))
            }
            completion(Result { try withReader(body) })
        }
        let startNow = state.withLock { state -> Bool in
            guard state.running >= maxReaders else {
                state.running += 1
                return true
            }
            state.waiting.append(Waiting(deadline: SystemClock.monotonicSeconds() + queueTimeoutSeconds, run: run))
            return false
        }
        if startNow { queue.async { [self] in drain(startingWith: run) } }
    }

    /// Runs `first`, then the waiting reads one after another while any wait, on one of the
    /// `maxReaders` places; a read that waited past its deadline fails instead of running.
    private func drain(startingWith first: @escaping @Sendable (Bool) -> Void) {
        var current: Waiting? = Waiting(deadline: .infinity, run: first)
        while let work = current {
            work.run(SystemClock.monotonicSeconds() >= work.deadline)
            current = state.withLock { state -> Waiting? in
                guard state.next < state.waiting.count else {
                    state.waiting.removeAll(keepingCapacity: true)
                    state.next = 0
                    state.running -= 1
                    return nil
                }
                defer {
                    state.next += 1
                    if state.next >= 1_024 && state.next * 2 >= state.waiting.count {
                        state.waiting.removeFirst(state.next)
                        state.next = 0
                    }
                }
                return state.waiting[state.next]
            }
        }
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withReader<T>(_ body: (ReadConnection) throws -> T) throws -> T {
        let reader = try state.withLock { $0.idle.popLast() } ?? ReadConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer {
            state.withLock { state in
                if !state.closed && state.idle.count < maxIdle { state.idle.append(reader) }
            }
        }
        return try body(reader)
    }

    /// Closes the idle connections, and from now on each connection once its read ends: at a
    /// clean stop, so that the writer's connection is the file's last and SQLite, closing it,
    /// removes the `-wal` and `-shm` files. Reads still work, each on a connection of its own.
    func close() {
        let closing = state.withLock { state in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = consume closing // closed here, outside the lock: a close may wait on the disk
    }
}

// Safe: a ReadConnection is used by one borrower at a time; the pool's lock hands it over.
extension ReadConnection: @unchecked Sendable {}
