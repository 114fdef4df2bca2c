import Locking

/// Open connections per peer address, so that one address cannot hold every connection slot
/// (`ServerConfiguration.maxConnectionsPerAddress`). Taken when a connection is accepted and
/// given back when it closes, from any loop.
final class PeerConnections: Sendable {
    /// Most connections one address may hold open; at least 1.
    let limit: Int
    private let counts = Locked<[String: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts one more connection from `peer`; false, counting nothing, when it holds `limit` already.
    func admit(_ peer: String) -> Bool {
        counts.withLock { counts in
            let open = counts[peer, default: 0]
            guard open < limit else { return false }
            counts[peer] = open + 1
            return true
        }
    }

    /// One connection `admit` counted has closed.
    func release(_ peer: String) {
        counts.withLock { counts in
            guard let open = counts[peer] else { return }
            counts[peer] = open > 1 ? open - 1 : nil
        }
    }

}
