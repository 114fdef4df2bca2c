import Dispatch
import Locking
import RatingsCore

/// Read connections lent to one read at a time, on the pool's own threads: a read may wait on
/// the disk, so it never runs on the caller's. Idle connections are kept for reuse; the pool grows
/// when every connection is busy and keeps at most `maxIdle` of them afterwards.
final class ReaderPool: Sendable {
    private struct Idle {
        var connections: [ReadConnection] = []
        /// Set by `close`: connections are closed after each read instead of kept.
        var closed = false
    }

    private let path: String
    private let busyTimeoutMilliseconds: Int32
    private let maxIdle: Int
    private let idle = Locked(Idle())
    private let queue = DispatchQueue(label: "ratings.sqlite.readers", qos: .userInitiated, attributes: .concurrent)

    init(path: String, busyTimeoutMilliseconds: Int32, maxIdle: Int) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxIdle = maxIdle
    }

    /// Runs `body` with a connection on the pool's threads and delivers its result to `completion`.
    func read<T>(_ completion: @escaping StoreCompletion<T>, _ body: @escaping @Sendable (ReadConnection) throws -> T) {
        queue.async { [self] in completion(Result { try withReader(body) }) }
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withReader<T>(_ body: (ReadConnection) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.connections.popLast() } ?? ReadConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer {
            idle.withLock { idle in
                if !idle.closed && idle.connections.count < maxIdle { idle.connections.append(reader) }
            }
        }
        return try body(reader)
    }

    /// Closes the idle connections, and from now on each connection once its read ends: at a
    /// clean stop, so that the writer's connection is the file's last and SQLite, closing it,
    /// removes the `-wal` and `-shm` files. Reads still work, each on a connection of its own.
    func close() {
        let closing = idle.withLock { idle in
            idle.closed = true
            defer { idle.connections = [] }
            return idle.connections
        }
        _ = consume closing // closed here, outside the lock: a close may wait on the disk
    }
}

// Safe: a ReadConnection is used by one borrower at a time; the pool's lock hands it over.
extension ReadConnection: @unchecked Sendable {}
