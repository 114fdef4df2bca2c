import Foundation
import Locking
import TestSupport

/// Raters `w0`, `w1`, … rating items `PREFIX-0`, `PREFIX-1`, … in turn through a server, each on a
/// thread of its own, until stopped: the load a backup or a copy must not lose a write of. Keeps
/// every acknowledged rating as "item/rater" → stars (the latest acknowledged stars).
final class StreamingWriters: Sendable {
    private let acknowledgedRatings = Locked<[String: Int]>([:])
    private let stopped = Locked(false)
    private let group = DispatchGroup()

    init(_ server: RatingsServer, writers: Int, items: Int, prefix: String) {
        for writer in 0..<writers {
            group.enter()
            Thread { [self] in
                defer { group.leave() }
                var n = 0
                while !stopped.withLock({ $0 }) {
                    let (item, stars) = ("\(prefix)-\(n % items)", n % 5 + 1)
                    if (try? server.request("PUT", "/v1/items/\(item)/ratings/w\(writer)", json: "{\"stars\": \(stars)}").status) ?? 0 < 300 {
                        acknowledgedRatings.withLock { $0["\(item)/w\(writer)"] = stars }
                    }
                    n += 1
                }
            }.start()
        }
    }

    /// What the server has acknowledged so far.
    var acknowledged: [String: Int] { acknowledgedRatings.withLock { $0 } }

    /// Stops every writer; true once all have finished, within 30 s.
    func stop() -> Bool {
        stopped.withLock { $0 = true }
        return group.wait(timeout: .now() + 30) == .success
    }
}
