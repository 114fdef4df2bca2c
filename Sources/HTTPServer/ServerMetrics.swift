import Synchronization

/// Counters the server keeps about itself, readable from any thread.
public final class ServerMetrics: Sendable {
    private let open = Atomic<Int>(0)

    public init() {}

    /// Connections open now.
    public var openConnections: Int { open.load(ordering: .relaxed) }

    func connectionOpened() { open.add(1, ordering: .relaxed) }
    func connectionClosed() { open.subtract(1, ordering: .relaxed) }
}
