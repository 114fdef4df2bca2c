import Locking
public import RatingsAPI

/// A clock tests move by hand, so rate limits, token expiry and timestamps need no sleeping.
public final class ManualClock: APIClock {
    private let time: Locked<(wall: Int64, monotonic: Double)>

    /// Starts at `wallMilliseconds` on the wall clock and 1,000 s on the monotonic one.
    public init(wallMilliseconds: Int64 = 1_796_033_700_000) {
        time = Locked((wallMilliseconds, 1_000))
    }

    public func wallMilliseconds() -> Int64 { time.withLock { $0.wall } }
    public func monotonicSeconds() -> Double { time.withLock { $0.monotonic } }

    /// Moves both clocks forward.
    public func advance(seconds: Double) {
        time.withLock { time in
            time.wall += Int64(seconds * 1000)
            time.monotonic += seconds
        }
    }
}
