import ASCIIKit
import Dispatch
import Foundation
import HTTP1
import Locking
import RatingsAPI
import RatingsCore
import TestSupport
import Testing

@Suite("Middleware: request ids, access and error logs, and where answers continue")
struct MiddlewareTests {
    @Test("X-Request-ID is echoed when it is 1 to 128 visible characters, generated otherwise, and logged", arguments: [
        ("abc-123", true), (String(repeating: "a", count: 128), true), (String(repeating: "a", count: 129), false), ("a b", false), ("", false),
    ])
    func requestIDs(sent: String, echoed: Bool) async throws {
        try await withAPI { service in
            let response = service.request("GET", "/healthz", headers: ["X-Request-ID": sent])
            let id = try #require(response.header("x-request-id"))
            #expect((id == sent) == echoed)
            #expect(!id.isEmpty && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
            #expect(service.accessLog.last?.hasSuffix("id=\(id)") == true)
        }
    }

    @Test("generated ids differ from request to request")
    func generatedIDsDiffer() async throws {
        try await withAPI { service in
            let ids = (0..<50).compactMap { _ in service.request("GET", "/healthz").header("x-request-id") }
            #expect(Set(ids).count == 50)
        }
    }

    @Test("the text access log: time, peer, request line, status, body bytes, duration, id")
    func textAccessLog() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/items/i?x=1", headers: ["X-Request-ID": "r-1"])
            let line = try #require(service.accessLog.last)
            #expect(line == "2026-11-30T10:15:00.000Z 192.0.2.1 \"GET /v1/items/i?x=1 HTTP/1.1\" 200 \(response.body.count) 0us id=r-1")
            _ = service.request("HEAD", "/v1/items/i", headers: ["X-Request-ID": "r-2"])
            #expect(service.accessLog.last?.contains("\"HEAD /v1/items/i HTTP/1.1\" 200 0 ") == true, "HEAD sends no body bytes")
        }
    }

    @Test("the text access log escapes a quote and a backslash in the request target, so the quoted field ends where it should")
    func textAccessLogEscapesQuotes() async throws {
        try await withAPI { service in
            _ = service.request("GET", #"/v1/display?value=3&x="a\"b"\"#, headers: ["X-Request-ID": "r-3"])
            let line = try #require(service.accessLog.last)
            #expect(line.contains(#""GET /v1/display?value=3&x=\"a\\\"b\"\\ HTTP/1.1" 200 "#), "\(line)")
            // Read back as a log parser would: the field is everything between the unescaped quotes.
            let field = try #require(line.split(separator: " \"", maxSplits: 1).last?.split(separator: "\" 200").first)
            #expect(field.replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(of: #"\\"#, with: "\\")
                    == #"GET /v1/display?value=3&x="a\"b"\ HTTP/1.1"#)
        }
    }

    @Test("the JSON access log: one object per line with the same fields")
    func jsonAccessLog() async throws {
        try await withAPI(logFormat: .json) { service in
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 4}"#, headers: ["X-Request-ID": "r-9"])
            let line = try #require(service.accessLog.last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["time"] as? String == "2026-11-30T10:15:00.000Z" && object["peer"] as? String == "192.0.2.1")
            #expect(object["method"] as? String == "PUT" && object["target"] as? String == "/v1/items/i/ratings/r")
            #expect(object["version"] as? String == "HTTP/1.1" && object["status"] as? Int == 201 && object["requestId"] as? String == "r-9")
            #expect((object["bytes"] as? Int ?? 0) > 0 && object["durationMicros"] as? Int == 0)
        }
    }

    @Test("a storage failure is a 503 for the client and an error-log line naming the request id", arguments: [LogFormat.text, .json])
    func errorLogNamesRequest(format: LogFormat) async throws {
        let store = InMemoryRatingStore()
        store.setFailing(true)
        try await withAPI(store: store, logFormat: format) { service in
            let response = service.request("GET", "/v1/items/i", headers: ["X-Request-ID": "req-77"])
            #expect(response.status == 503 && detail(response).contains("retry"))
            #expect(!detail(response).contains("in-memory"), "the cause is logged, never sent")
            let line = try #require(service.errorLog.last)
            #expect(line.contains("req-77") && line.contains("in-memory store was told to fail"))
            if format == .json {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                #expect(object?["level"] as? String == "error" && object?["requestId"] as? String == "req-77")
            }
            #expect(service.request("GET", "/readyz").status == 503)
            store.setFailing(false)
            #expect(service.request("GET", "/readyz").status == 200)
        }
    }

    @Test("store results continue on the request's loop, middleware and all, never on the store's thread")
    func answersContinueOnTheLoop() throws {
        let loop = QueueLoop()
        var configuration = APIConfiguration(languages: try LanguageCatalog.bundled())
        configuration.errorLog = { _ in }
        let api = RatingsAPI(store: InMemoryRatingStore(deliveringOn: DispatchQueue(label: "test.store")), configuration: configuration)
        let answered = DispatchSemaphore(value: 0)
        let onLoop = Locked<Bool?>(nil)
        let request = HTTPRequest(head: HTTPRequestHead(method: "PUT", target: "/v1/items/i/ratings/r",
                                                        headers: HTTPHeaders([("host", "t"), ("content-type", "application/json")])),
                                  body: Array(#"{"stars": 3}"#.utf8))
        loop.execute {
            api.handle(request, RequestEnvironment(peer: "p", loop: loop)) { response in
                onLoop.withLock { $0 = loop.isCurrent && response.status == 201 }
                answered.signal()
            }
        }
        #expect(answered.wait(timeout: .now() + 5) == .success)
        #expect(onLoop.withLock { $0 } == true)
        // The middleware's way out (the access log) ran there too, not on the store's thread.
        #expect(loop.linesOnLoop.withLock { $0 } == 1 && loop.linesOffLoop.withLock { $0 } == 0)
    }
}

/// A loop that is one serial dispatch queue, which knows when it is running, and counts the
/// access-log lines written to it from elsewhere (a loop's log buffer is its own thread's).
private final class QueueLoop: RequestLoop {
    private let queue = DispatchQueue(label: "test.loop")
    private let key = DispatchSpecificKey<Bool>()
    let linesOnLoop = Locked(0), linesOffLoop = Locked(0)
    init() { queue.setSpecific(key: key, value: true) }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
    func execute(_ task: @escaping @Sendable () -> Void) { queue.async(execute: task) }
    func appendLogLine(_ write: (inout ByteBuffer) -> Void) {
        if isCurrent { linesOnLoop.withLock { $0 += 1 } } else { linesOffLoop.withLock { $0 += 1 } }
    }
}


