import Locking

/// Read connections lent to one caller at a time. Idle connections are kept for reuse; the pool
/// grows when every connection is busy and keeps at most `maxIdle` of them afterwards.
final class ReaderPool: Sendable {
    private let path: String
    private let busyTimeoutMilliseconds: Int32
    private let maxIdle: Int
    private let idle = Locked<[ReadConnection]>([])

    init(path: String, busyTimeoutMilliseconds: Int32, maxIdle: Int) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.maxIdle = maxIdle
    }

    /// Lends a connection to `body` and takes it back afterwards.
    func withReader<T>(_ body: (ReadConnection) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? ReadConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        defer {
            idle.withLock { connections in
                if connections.count < maxIdle { connections.append(reader) }
            }
        }
        return try body(reader)
    }
}

// Safe: a ReadConnection is used by one borrower at a time; the pool's lock hands it over.
extension ReadConnection: @unchecked Sendable {}
