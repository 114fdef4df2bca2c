@testable import PostgresStore
import Testing

private let refused = PostgresError(kind: .connection, sqlstate: "", operation: "connect", message: "Connection refused")

@Suite("Reconnecting after failures: exponential backoff with jitter, without a database")
struct ReconnectBackoffTests {
    @Test("the n-th failure in a row waits base · 2^(n-1), at most the cap, scaled by the jitter", arguments: [
        (1, 1.0, 0.25), (2, 1.0, 0.5), (3, 1.0, 1.0), (4, 1.0, 2.0), (5, 1.0, 4.0), (6, 1.0, 4.0), (60, 1.0, 4.0),
        (1, 0.5, 0.125), (5, 0.5, 2.0), (3, 0.0, 0.5), (3, 7.0, 1.0),
    ])
    func delays(failures: Int, jitter: Double, seconds: Double) {
        #expect(ReconnectBackoff(base: 0.25, cap: 4).delay(afterFailures: failures, jitter: jitter) == seconds)
    }

    @Test("requests fail at once with the last failure until its delay ends; each failure in a row doubles it; a success starts over")
    func states() {
        var backoff = ReconnectBackoff(base: 0.25, cap: 4)
        #expect(backoff.state == .ready && backoff.refusal(at: 0) == nil)
        backoff.failed(refused, at: 10, jitter: 1)
        #expect(backoff.state == .waiting(failures: 1, until: 10.25, error: refused))
        #expect(backoff.refusal(at: 10.2) == refused)
        #expect(backoff.refusal(at: 10.25) == nil, "an attempt may be made once the delay has passed")
        backoff.failed(refused, at: 10.25, jitter: 1)
        #expect(backoff.state == .waiting(failures: 2, until: 10.75, error: refused))
        for _ in 0..<10 { backoff.failed(refused, at: 20, jitter: 1) }
        #expect(backoff.state == .waiting(failures: 12, until: 24, error: refused), "capped at 4 s")
        backoff.succeeded()
        #expect(backoff.state == .ready && backoff.refusal(at: 20) == nil)
        backoff.failed(refused, at: 30, jitter: 0.5)
        #expect(backoff.state == .waiting(failures: 1, until: 30.125, error: refused), "after a success the first delay again")
    }
}
