/// When a pool whose connection attempts fail may try again: after the n-th failure in a row,
/// requests fail at once with that failure for `base · 2^(n-1)` seconds, at most `cap`, each delay
/// scaled by a jitter from 0.5 to 1 so that replicas (and workers) that failed together do not
/// retry together ("equal jitter"). A success starts over. Pure: the pool gives it the clock and
/// the jitter, and its tests give it theirs.
struct ReconnectBackoff: Sendable, Equatable {
    /// Where the pool stands.
    enum State: Sendable, Equatable {
        /// No failure since the last success: connect now.
        case ready
        /// `failures` attempts in a row failed, the last with `error`; none before `until`.
        case waiting(failures: Int, until: Double, error: PostgresError)
    }

    /// The first delay, in seconds.
    let base: Double
    /// The longest delay, in seconds.
    let cap: Double
    private(set) var state = State.ready

    init(base: Double, cap: Double) {
        self.base = base
        self.cap = max(base, cap)
    }

    /// The failure to answer with instead of connecting at `now`; nil when an attempt may be made.
    func refusal(at now: Double) -> PostgresError? {
        guard case .waiting(_, let until, let error) = state, now < until else { return nil }
        return error
    }

    /// An attempt failed at `now`; `jitter` is drawn from 0.5...1 (clamped there).
    mutating func failed(_ error: PostgresError, at now: Double, jitter: Double) {
        let failures: Int
        if case .waiting(let before, _, _) = state { failures = before + 1 } else { failures = 1 }
        state = .waiting(failures: failures, until: now + delay(afterFailures: failures, jitter: jitter), error: error)
    }

    /// An attempt succeeded: the next failure waits `base` again.
    mutating func succeeded() { state = .ready }

    /// How long requests fail at once after `failures` failures in a row.
    func delay(afterFailures failures: Int, jitter: Double) -> Double {
        let doubling = Double(1 << min(max(failures - 1, 0), 30))
        return min(cap, base * doubling) * min(1, max(0.5, jitter))
    }
}
