import RatingsAPI
import Testing

@Suite("The write limit is a token bucket per rater")
struct WriteRateLimiterTests {
    @Test("a burst goes through at once, the next write waits one interval, and Retry-After says so")
    func burstThenRate() {
        let limiter = WriteRateLimiter(ratePerSecond: 2, burst: 3)
        #expect((0..<3).map { _ in limiter.admit("u-1", now: 100) } == [nil, nil, nil])
        #expect(limiter.admit("u-1", now: 100) == 1)
        #expect(limiter.admit("u-1", now: 100.4) == 1)
        #expect(limiter.admit("u-1", now: 100.5) == nil)
        #expect(limiter.admit("u-1", now: 100.5) == 1)
        #expect(limiter.admit("u-2", now: 100.5) == nil, "another rater has a bucket of their own")
    }

    @Test("a slow rater keeps being admitted, and a waiting time of several seconds is rounded up")
    func sustainedRate() {
        let limiter = WriteRateLimiter(ratePerSecond: 0.25, burst: 1)
        #expect(limiter.admit("u-1", now: 0) == nil)
        #expect(limiter.admit("u-1", now: 1) == 3)
        for second in stride(from: 4.0, through: 400, by: 4) { #expect(limiter.admit("u-1", now: second) == nil) }
    }

    @Test("a rater who was over the limit is not forgotten early, however many other raters write")
    func notForgottenEarly() {
        let limiter = WriteRateLimiter(ratePerSecond: 1, burst: 2)
        #expect(limiter.admit("busy", now: 0) == nil)
        #expect(limiter.admit("busy", now: 0) == nil)
        for index in 0..<50_000 { _ = limiter.admit("other-\(index)", now: 1.5 + Double(index) / 100_000) }
        #expect(limiter.admit("busy", now: 1.9) == nil, "one token refilled after one second")
        #expect(limiter.admit("busy", now: 1.95) == 1, "and only one")
        #expect(limiter.admit("busy", now: 10) == nil)
        #expect(limiter.admit("busy", now: 10) == nil, "idle long enough to be full again")
        #expect(limiter.admit("busy", now: 10) == 1)
    }
}
