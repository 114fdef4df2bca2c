import Foundation
import RatingsAPI
import TestSupport
import Testing

@Suite("Error-log lines: one line per event, and a repeated failure at most once a second")
struct ErrorLogLinesTests {
    @Test("a message spanning lines is written on one line in both formats", arguments: [LogFormat.text, .json])
    func oneLinePerEvent(format: LogFormat) throws {
        let message = "could not connect to server: Connection refused\n\tIs the server running on host \"db\"?\r\n\u{1B}[0m"
        let line = LogLine.make(message, requestID: "r-1", format: format, wallMilliseconds: 0)
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{1B}"))
        switch format {
        case .text:
            #expect(line == #"request r-1: could not connect to server: Connection refused\n\tIs the server running on host "db"?\r\n\u{1B}[0m"#)
        case .json:
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["message"] as? String == message, "JSON keeps the message exactly, escaped")
        }
    }

    @Test("the same message is written once per interval, the next one saying how many were held back")
    func throttlesRepeats() {
        let throttle = LogThrottle(intervalMilliseconds: 1_000)
        #expect(throttle.admit("db down", now: 0) == ([], "db down"))
        for now in stride(from: Int64(10), to: 1_000, by: 10) { #expect(throttle.admit("db down", now: now).message == nil) }
        #expect(throttle.admit("other failure", now: 500) == ([], "other failure"), "another message has its own interval")
        #expect(throttle.admit("db down", now: 1_000) == ([], "db down (and 99 more like it since it was last logged)"))
        #expect(throttle.admit("db down", now: 1_001).message == nil)
        // A message that stops repeating has its count reported with the next line after its interval.
        #expect(throttle.admit("later", now: 2_500) == (["1 more like this since it was last logged: db down"], "later"))
        #expect(throttle.admit("db down", now: 2_600) == ([], "db down"), "forgotten once reported: written at once")
        _ = throttle.admit("db down", now: 2_700)
        #expect(throttle.remainingCounts() == ["1 more like this since it was last logged: db down"])
    }

    @Test("past the messages it tracks, a new message is written rather than lost")
    func boundedTracking() {
        let throttle = LogThrottle(intervalMilliseconds: 1_000, maxTracked: 2)
        for message in ["a", "b", "c", "c"] { #expect(throttle.admit(message, now: 0).message == message) }
        #expect(throttle.admit("a", now: 1).message == nil)
    }

    @Test("a storage outage: every request is answered 503, one error line per second for the same failure")
    func outageLogsOncePerSecond() async throws {
        let store = InMemoryRatingStore()
        store.setFailing(true)
        let clock = ManualClock()
        try await withAPI(store: store, clock: clock) { service in
            for round in 0..<3 {
                for index in 0..<50 {
                    #expect(service.request("GET", "/v1/items/i", headers: ["X-Request-ID": "r\(round)-\(index)"]).status == 503)
                }
                clock.advance(seconds: 1)
            }
            let lines = service.errorLog
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.first?.hasPrefix("request r0-0: storage failure:") == true)
            #expect(lines.dropFirst().allSatisfy { $0.hasSuffix("(and 49 more like it since it was last logged)") }, "\(lines)")
        }
    }
}
