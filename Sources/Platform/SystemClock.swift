import Glibc

/// The two clocks the service reads: monotonic for durations and deadlines, wall for
/// timestamps: the one place the service reads the machine's time. Reading a clock is a vDSO
/// call, not IO, so pure modules may depend on this one.
public enum SystemClock {
    /// Seconds on the monotonic clock (arbitrary origin, never goes back).
    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Milliseconds since the Unix epoch, UTC.
    public static func wallMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
