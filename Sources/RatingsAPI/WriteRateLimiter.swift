import Locking

/// A token bucket per rater for writes: `ratePerSecond` sustained, `burst` at once. Shared by
/// every connection, so a rater cannot escape the limit by opening more of them.
public final class WriteRateLimiter: Sendable {
    /// Buckets kept before idle (full) ones are dropped.
    static let maxTrackedRaters = 100_000

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let ratePerSecond: Double
    private let burst: Double
    private let buckets = Locked<[String: Bucket]>([:])

    public init(ratePerSecond: Double, burst: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = Double(max(burst, 1))
    }

    /// Takes a token for `rater` at `now` (seconds, monotonic). Nil when the write may go ahead;
    /// otherwise the whole seconds to wait before the next token (for `Retry-After`).
    public func admit(_ rater: String, now: Double) -> Int? {
        buckets.withLock { buckets in
            if buckets.count >= Self.maxTrackedRaters { prune(&buckets, now: now) }
            var bucket = buckets[rater] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * ratePerSecond)
            bucket.updated = now
            defer { buckets[rater] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / ratePerSecond).rounded(.up)))
        }
    }

    /// Drops raters whose bucket has refilled: forgetting them changes nothing.
    private func prune(_ buckets: inout [String: Bucket], now: Double) {
        buckets = buckets.filter { _, bucket in bucket.tokens + (now - bucket.updated) * ratePerSecond < burst }
    }
}
