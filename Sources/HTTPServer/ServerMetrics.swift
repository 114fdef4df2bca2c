import Synchronization

/// Counters the server keeps about itself, readable from any thread.
public final class ServerMetrics: Sendable {
    private let open = Atomic<Int>(0)
    private let refusing = Atomic<Int>(0)

    public init() {}

    /// Connections open now, refused ones still lingering included.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    /// Refused connections lingering now (their 503 written, their input read until they close).
    var lingeringRefusals: Int { refusing.load(ordering: .relaxed) }

    /// Connections open now that serve requests: the connection limits count these.
    var servingConnections: Int { openConnections - lingeringRefusals }

    func connectionOpened() { open.add(1, ordering: .relaxed) }
    func connectionClosed() { open.subtract(1, ordering: .relaxed) }
    func refusalStarted() { refusing.add(1, ordering: .relaxed) }
    func refusalEnded() { refusing.subtract(1, ordering: .relaxed) }
}
