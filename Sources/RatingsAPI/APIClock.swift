import Platform

/// The clocks the API reads: the wall clock for `updatedAt` and token expiry, the monotonic clock
/// for durations and rate limits. Injectable, so tests move time instead of sleeping.
public protocol APIClock: Sendable {
    /// Milliseconds since the Unix epoch, UTC.
    func wallMilliseconds() -> Int64
    /// Seconds on a clock that never goes back (arbitrary origin).
    func monotonicSeconds() -> Double
}

/// The machine's clocks.
public struct MachineClock: APIClock {
    public init() {}
    public func wallMilliseconds() -> Int64 { SystemClock.wallMilliseconds() }
    public func monotonicSeconds() -> Double { SystemClock.monotonicSeconds() }
}
