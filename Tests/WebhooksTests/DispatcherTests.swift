import Foundation
import HTTP1
import HTTPServer
import Locking
import RatingsAPI
import RatingsCore
import TestSupport
import Testing
import Webhooks

private let secretText = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

/// A request a receiver took, with when it arrived.
private struct Received: Sendable {
    let id: String
    let timestamp: String
    let signature: String
    let body: [UInt8]
    let at: Double
}

/// What a receiver answers its `n`th request (from 0): a status and fields, or nothing ever.
private enum Answer: Sendable {
    case status(Int, [(String, String)] = [])
    case hang
}

/// Runs a receiver on a free port with `answer`, and `body` with its port and what it took.
private func withReceiver<T>(_ answer: @escaping @Sendable (Int) -> Answer, _ body: (Int, Locked<[Received]>) async throws -> T) async throws -> T {
    let received = Locked<[Received]>([])
    let handler = HTTPHandler { request, _, _ in
        let index = received.withLock { list -> Int in
            list.append(Received(id: request.headers["webhook-id"] ?? "", timestamp: request.headers["webhook-timestamp"] ?? "",
                                 signature: request.headers["webhook-signature"] ?? "", body: request.body, at: ProcessInfo.processInfo.systemUptime))
            return list.count - 1
        }
        switch answer(index) {
        case .status(let status, let fields): return .now(HTTPResponse(status: status, headers: HTTPHeaders(fields)))
        case .hang: return .later
        }
    }
    return try await withTestServer(handler: handler, configure: { $0.drainTimeoutSeconds = 0.5 }) { port, _ in try await body(port, received) }
}

private func endpoint(_ id: String, port: Int, events: [String] = ["*"]) throws -> WebhookEndpoint {
    let json = #"{"endpoints": [{"id": "\#(id)", "url": "http://127.0.0.1:\#(port)/hook", "secret": "\#(secretText)", "events": [\#(events.map { "\"\($0)\"" }.joined(separator: ","))]}]}"#
    return try WebhookConfiguration.endpoints(from: Array(json.utf8))[0]
}

/// A SQLite store recording events for `endpoints`, and a dispatcher delivering them, stopped after `body`.
private func withDispatcher<T>(_ endpoints: [WebhookEndpoint], timeoutSeconds: Double = 10, workers: Int = 4, perEndpoint: Int = 2,
                               restSeconds: Double = 1, startsAtOnce: Bool = true,
                               _ body: (any ReviewStore, WebhookDispatcher, Locked<[String]>) async throws -> T) async throws -> T {
    let set = WebhookEndpoints(endpoints)
    let bodies = EventBodies(languages: try LanguageCatalog.bundled())
    return try await withStore(.sqlite, options: .init(events: OutboxRecorder(endpoints: set))) { store in
        var settings = WebhookDispatcher.Settings()
        settings.pollSeconds = 0.05
        settings.timeoutSeconds = timeoutSeconds
        settings.workers = workers
        settings.perEndpoint = perEndpoint
        settings.restSeconds = restSeconds
        let log = Locked<[String]>([])
        let dispatcher = WebhookDispatcher(store: store, endpoints: set, settings: settings, render: { bodies.body(of: $0) }) { line in
            log.withLock { $0.append(line) }
        }
        if startsAtOnce { try dispatcher.start() }
        defer { dispatcher.stop() }
        return try await body(store, dispatcher, log)
    }
}

private func rate(_ store: any ReviewStore, _ item: String, _ stars: Int = 4) async throws {
    _ = try await store.submit(SubmitRequest(item: ItemID(stored: item), rater: RaterID(stored: "u-1"), stars: stars, defaultScale: .standard,
                                             nowMilliseconds: Int64(Date().timeIntervalSince1970 * 1000)))
}

@Suite("The dispatcher delivers the outbox: signed, retried as scheduled, never held up by a bad endpoint", .serialized)
struct DispatcherTests {
    @Test("a write's event arrives signed as Standard Webhooks says, once; the outbox marks it delivered")
    func delivers() async throws {
        try await withReceiver({ _ in .status(204) }) { port, received in
            let hook = try endpoint("crm", port: port)
            try await withDispatcher([hook]) { store, dispatcher, _ in
                try await rate(store, "soup")
                #expect(eventually { received.withLock { $0.count } == 1 })
                let request = try #require(received.withLock { $0.first })
                #expect(request.id.hasPrefix("msg_") && Int64(request.timestamp) != nil)
                #expect(request.signature == WebhookSignature.sign(id: request.id, timestampSeconds: Int64(request.timestamp) ?? 0,
                                                                   body: request.body, secret: hook.secret))
                let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
                let data = try #require(json["data"] as? [String: Any])
                #expect(json["type"] as? String == "rating.created" && data["itemId"] as? String == "soup" && data["itemVersion"] as? Int == 1)
                #expect((data["summary"] as? [String: Any])?["count"] as? Int == 1)
                #expect(eventually { (try? blockingTotals(store))?["crm"]?.delivered == 1 })
                #expect(dispatcher.attempts()["crm"]?.delivered == 1)
            }
        }
    }

    @Test("a 503 with Retry-After: 1 is tried again a second later, with the same webhook-id; the error is kept for the admin route")
    func retryAfter() async throws {
        try await withReceiver({ $0 == 0 ? .status(503, [("Retry-After", "1")]) : .status(200) }) { port, received in
            try await withDispatcher([try endpoint("crm", port: port)]) { store, dispatcher, log in
                try await rate(store, "soup")
                #expect(eventually(timeout: 15) { received.withLock { $0.count } == 2 })
                let (first, second) = received.withLock { ($0[0], $0[1]) }
                #expect(first.id == second.id && second.at - first.at >= 0.9)
                #expect(eventually { (try? blockingTotals(store))?["crm"]?.delivered == 1 })
                #expect(try blockingTotals(store)["crm"]?.lastError?.status == 503)
                #expect(dispatcher.attempts()["crm"] == { var counts = AttemptCounts(); counts.delivered = 1; counts.retried = 1; return counts }())
                #expect(log.withLock { $0 }.contains { $0.contains("endpoint crm: attempt 1 of rating.created event \(first.id) answered 503") })
            }
        }
    }

    @Test("an endpoint that refuses connections waits its 5 s before the second attempt; one that hangs times out; neither holds up another")
    func badEndpoints() async throws {
        try await withReceiver({ _ in .hang }) { hangingPort, hung in
            try await withReceiver({ _ in .status(204) }) { port, received in
                let closed = try #require(freeLoopbackPort())
                let endpoints = [try endpoint("down", port: closed), try endpoint("slow", port: hangingPort), try endpoint("fast", port: port)]
                try await withDispatcher(endpoints, timeoutSeconds: 1, workers: 4, perEndpoint: 1) { store, dispatcher, _ in
                    let start = ProcessInfo.processInfo.systemUptime
                    for index in 0..<6 { try await rate(store, "item-\(index)") }
                    // The fast endpoint gets all six while the slow one holds one worker at a time.
                    #expect(eventually { received.withLock { $0.count } == 6 })
                    #expect(eventually(timeout: 15) { (try? blockingTotals(store))?["slow"]?.lastError?.error?.contains("timed out") == true })
                    let down = try blockingTotals(store)["down"]
                    #expect(down?.pending == 6 && down?.lastError?.error != nil && down?.lastError?.status == nil)
                    // Refused, then resting: 1 s after the first refusal, 2 s after the second, so at
                    // most three attempts in the first 3 s, and each event waits its 5 s before a second.
                    let counts = dispatcher.attempts()["down"]
                    let elapsed = ProcessInfo.processInfo.systemUptime - start
                    #expect((counts?.retried ?? 0) >= 1 && (counts?.retried ?? 0) <= 3 || elapsed >= 3, "\(String(describing: counts)) after \(elapsed) s")
                    #expect(hung.withLock { $0.count } >= 1)
                }
            }
        }
    }

    @Test("an endpoint whose attempts fail rests instead of being tried once per event, and takes everything once it answers")
    func failingEndpointRests() async throws {
        // The first two requests fail; every later one succeeds.
        try await withReceiver({ index in index < 2 ? .status(500) : .status(204) }) { port, received in
            try await withDispatcher([try endpoint("flaky", port: port)], workers: 4, perEndpoint: 2, restSeconds: 10,
                                     startsAtOnce: false) { store, dispatcher, _ in
                // Every event waits in the outbox before the dispatcher starts, however long the writes take.
                for index in 0..<200 { try await rate(store, "item-\(index)") }
                try dispatcher.start()
                #expect(eventually { received.withLock { $0.count } >= 2 })
                try await Task.sleep(nanoseconds: 500_000_000)
                // Two attempts in flight fail together, and the endpoint rests its 10 s: nothing more meanwhile.
                let (count, firstAt) = received.withLock { ($0.count, $0.first?.at ?? 0) }
                let resting = ProcessInfo.processInfo.systemUptime - firstAt
                #expect(resting < 9 && count == 2, "\(count) requests \(resting) s into the rest")
                // Then it answers: the rest ends, and every event arrives (the two that failed after their 5 s).
                #expect(eventually(timeout: 20) { dispatcher.attempts()["flaky"]?.delivered == 200 })
                #expect(dispatcher.attempts()["flaky"]?.retried == 2 && Set(received.withLock { $0.map(\.id) }).count == 200)
            }
        }
    }

    @Test("an endpoint taken out of the webhooks file has its deliveries marked failed, saying why")
    func removedEndpoint() async throws {
        let set = WebhookEndpoints([try endpoint("gone", port: 9)])
        let bodies = EventBodies(languages: try LanguageCatalog.bundled())
        try await withStore(.sqlite, options: .init(events: OutboxRecorder(endpoints: set))) { store in
            try await rate(store, "soup")
            set.replace([])
            var settings = WebhookDispatcher.Settings()
            settings.pollSeconds = 0.05
            settings.pruneIntervalSeconds = 0.1
            let dispatcher = WebhookDispatcher(store: store, endpoints: set, settings: settings, render: { bodies.body(of: $0) }) { _ in }
            try dispatcher.start()
            defer { dispatcher.stop() }
            #expect(eventually { (try? blockingTotals(store))?["gone"]?.failed == 1 })
            #expect(try blockingTotals(store)["gone"]?.lastError?.error == "the endpoint is no longer in the webhooks file")
        }
    }
}

/// The store's totals, waited for on this thread (for `eventually`).
private func blockingTotals(_ store: any ReviewStore) throws -> [String: DeliveryTotals] {
    let answer = Locked<Result<[String: DeliveryTotals], any Error>?>(nil)
    store.deliveryTotals { result in answer.withLock { $0 = result } }
    guard eventually(timeout: 5, { answer.withLock { $0 } != nil }), let result = answer.withLock({ $0 }) else { return [:] }
    return try result.get()
}

@Suite("HTTPS endpoints: certificates are verified")
struct HTTPSEndpointTests {
    @Test("an endpoint whose certificate no trusted authority signed is refused before anything is sent, and retried")
    func selfSignedCertificateIsRefused() async throws {
        let directory = try TemporaryDirectory("ratings-https")
        defer { directory.remove() }
        let port = try #require(freeLoopbackPort())
        let (key, certificate) = (directory.file("key.pem"), directory.file("cert.pem"))
        let openssl = try Subprocess(["/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                      "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                                     environment: ["PATH": "/usr/bin:/bin"])
        #expect(openssl.waitForExit(timeout: 30) == 0, "\(openssl.stderr)")
        let server = """
            import http.server, ssl, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_POST(self):
                    print("received", flush=True); self.send_response(204); self.end_headers()
            httpd = http.server.HTTPServer(("127.0.0.1", \(port)), H)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); context.load_cert_chain("\(certificate)", "\(key)")
            httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
            print("ready", flush=True); httpd.serve_forever()
            """
        let python = try Subprocess(["/usr/bin/env", "python3", "-c", server], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
        defer { python.send(SIGKILL) }
        #expect(eventually { python.stdout.contains("ready") })
        let json = #"{"endpoints": [{"id": "tls", "url": "https://127.0.0.1:\#(port)/in", "secret": "\#(secretText)", "events": ["*"]}]}"#
        try await withDispatcher(try WebhookConfiguration.endpoints(from: Array(json.utf8))) { store, dispatcher, _ in
            try await rate(store, "soup")
            #expect(eventually { (try? blockingTotals(store))?["tls"]?.lastError?.error?.contains("certificate") == true })
            #expect((dispatcher.attempts()["tls"]?.retried ?? 0) >= 1 && (dispatcher.attempts()["tls"]?.delivered ?? 0) == 0)
            #expect(!python.stdout.contains("received"))
        }
    }
}
