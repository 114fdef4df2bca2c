/// When a delivery that did not succeed is tried again: 5 s, 30 s, 2 min, 10 min and 30 min
/// after the attempts before, then every hour, until 24 hours after the first attempt; a `429` or
/// `503` whose `Retry-After` is at most an hour is tried again after that instead.
public enum RetrySchedule {
    /// Delays after the first five failed attempts, in seconds; every later one waits an hour.
    public static let delays: [Int64] = [5, 30, 120, 600, 1_800]
    public static let laterDelay: Int64 = 3_600
    /// How long after the first attempt a delivery is retried.
    public static let window: Int64 = 24 * 3_600
    /// The longest `Retry-After` taken.
    public static let longestRetryAfter: Int64 = 3_600

    /// When to try again after `attempts` failed attempts (1 after the first), the first at
    /// `firstAttemptMilliseconds`, the last ending at `nowMilliseconds`; nil when the delivery
    /// has failed for good.
    public static func next(afterAttempts attempts: Int, firstAttemptMilliseconds: Int64, nowMilliseconds: Int64,
                            retryAfterSeconds: Int64? = nil) -> Int64? {
        let delay: Int64
        if let retryAfterSeconds, (0...longestRetryAfter).contains(retryAfterSeconds) {
            delay = retryAfterSeconds
        } else {
            delay = attempts >= 1 && attempts <= delays.count ? delays[attempts - 1] : laterDelay
        }
        let due = nowMilliseconds + delay * 1_000
        return due <= firstAttemptMilliseconds + window * 1_000 ? due : nil
    }
}
