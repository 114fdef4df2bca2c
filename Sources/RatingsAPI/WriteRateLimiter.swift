import Locking

/// A token bucket per rater for writes: `ratePerSecond` sustained, `burst` at once. Shared by
/// every connection, so a rater cannot escape the limit by opening more of them.
///
/// Each bucket is kept as one number, the time at which it will be full again (the generic cell
/// rate algorithm's "theoretical arrival time"), under the rater's hash. A bucket that is full is
/// the same as one never used, so forgetting it changes nothing: buckets live in two generations
/// that turn over once per refill time, and a bucket is dropped only after a whole refill time
/// untouched. Memory so follows the raters of the last few seconds, and nothing is ever scanned.
public final class WriteRateLimiter: Sendable {
    private struct Generations {
        var current: [Int: Double] = [:]
        var previous: [Int: Double] = [:]
        var started: Double
    }

    /// Seconds one write uses up.
    private let interval: Double
    /// How far ahead of now a bucket's full-again time may run: `burst - 1` writes' worth.
    private let tolerance: Double
    /// How long an untouched bucket takes to fill from empty, so the generations' length.
    private let refill: Double
    private let generations: Locked<Generations>

    public init(ratePerSecond: Double, burst: Int) {
        interval = 1 / ratePerSecond
        tolerance = interval * Double(max(burst, 1) - 1)
        refill = interval * Double(max(burst, 1))
        generations = Locked(Generations(started: -.infinity))
    }

    /// Takes a token for `rater` at `now` (seconds, monotonic). Nil when the write may go ahead;
    /// otherwise the whole seconds to wait before the next token (for `Retry-After`).
    public func admit(_ rater: String, now: Double) -> Int? {
        // Swift's hash is keyed per process, so nobody can aim collisions at another rater; an
        // accidental one only makes two raters share a bucket.
        let key = rater.hashValue
        return generations.withLock { generations in
            if now - generations.started >= refill {
                generations.previous = now - generations.started >= 2 * refill ? [:] : generations.current
                generations.current = [:]
                generations.started = now
            }
            // The previous generation is read first, so that the bucket is found in the current one
            // once, to be read and written in place, where a read and then a write found it twice.
            let carried = generations.previous.isEmpty ? nil : generations.previous[key]
            return take(&generations.current[key], carried: carried, now: now)
        }
    }

    /// Takes a token from `bucket` (nil: not in the current generation, then `carried` from the
    /// previous one, if there), or says how long to wait for one, leaving `bucket` as it was.
    private func take(_ bucket: inout Double?, carried: Double?, now: Double) -> Int? {
        let fullAt = max(bucket ?? carried ?? now, now)
        let wait = fullAt - now - tolerance
        if wait > 0 {
            return max(1, Int(wait.rounded(.up)))
        }
        bucket = fullAt + interval
        return nil
    }
}
