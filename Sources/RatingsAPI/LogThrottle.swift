import Locking

/// Keeps a failure that repeats from flooding the log: the same message is written at most once
/// per interval, and the next time it is written it says how many like it were held back. During
/// a database outage every request fails the same way; one line a second with a count tells an
/// operator as much as thousands. Messages are compared whole (without request id or time), and
/// at most `maxTracked` different ones are tracked at a time; past that, a new message is written.
public final class LogThrottle: Sendable {
    private struct Seen {
        var writtenAt: Int64
        var heldBack: Int
    }

    private struct State {
        var seen: [String: Seen] = [:]
        var sweptAt: Int64?
    }

    /// How long after writing a message the same one is held back.
    public let intervalMilliseconds: Int64
    private let maxTracked: Int
    private let state = Locked(State())

    public init(intervalMilliseconds: Int64 = 1_000, maxTracked: Int = 256) {
        self.intervalMilliseconds = intervalMilliseconds
        self.maxTracked = maxTracked
    }

    /// What to write for `message` at `now` (milliseconds on a clock that does not go back):
    /// `message` is nil when it is held back, else the message saying how many like it were held
    /// back since it was last written; `earlier` holds such a count for other messages whose
    /// interval ended without their coming back.
    public func admit(_ message: String, now: Int64) -> (earlier: [String], message: String?) {
        state.withLock { state in
            let earlier = sweep(&state, now: now, except: message)
            if var seen = state.seen[message], now - seen.writtenAt < intervalMilliseconds {
                seen.heldBack += 1
                state.seen[message] = seen
                return (earlier, nil)
            }
            let heldBack = state.seen[message]?.heldBack ?? 0
            if state.seen[message] != nil || state.seen.count < maxTracked {
                state.seen[message] = Seen(writtenAt: now, heldBack: 0)
            }
            return (earlier, heldBack > 0 ? message + Self.heldBackNote(heldBack) : message)
        }
    }

    /// The counts of messages held back and not written since, whatever their interval (at a stop).
    public func remainingCounts() -> [String] {
        state.withLock { state in
            defer { state.seen = [:] }
            return state.seen.filter { $0.value.heldBack > 0 }.map { Self.heldBackLine($0.key, $0.value.heldBack) }.sorted()
        }
    }

    /// Once per interval: reports and forgets the messages whose interval has ended.
    private func sweep(_ state: inout State, now: Int64, except current: String) -> [String] {
        if let sweptAt = state.sweptAt, now - sweptAt < intervalMilliseconds { return [] }
        state.sweptAt = now
        var lines: [String] = []
        for (message, seen) in state.seen where message != current && now - seen.writtenAt >= intervalMilliseconds {
            if seen.heldBack > 0 { lines.append(Self.heldBackLine(message, seen.heldBack)) }
            state.seen[message] = nil
        }
        return lines.sorted()
    }

    private static func heldBackNote(_ count: Int) -> String {
        " (and \(count) more like it since it was last logged)"
    }

    private static func heldBackLine(_ message: String, _ count: Int) -> String {
        "\(count) more like this since it was last logged: \(message)"
    }
}
