import Foundation
import Glibc
import HTTP1
import HTTPServer
import Platform
import TestSupport
import Testing

@Suite("Under abuse the server keeps serving", .serialized)
struct ServerAbuseTests {
    // No clock here: "promptly" is shown by order, not by a time bound. A server that had to finish
    // with the other clients first could answer the probe only after they were done (never, for
    // idle ones; at their head deadline, for slow ones), and the probe's read would run into its
    // client's timeout (10 s) instead.

    /// Opens `count` connections and sends each the first four bytes of a request head, one byte
    /// to every client at a time, then `between` them and a 400 ms pause: the pace of a slowloris
    /// attack. The clients, still mid-head.
    private func trickleHeads(from count: Int, port: Int, between: ([RawHTTPClient]) throws -> Void) async throws -> [RawHTTPClient] {
        let slow = try (0..<count).map { _ in try RawHTTPClient(port: port) }
        let head = Array("GET / HTTP/1.1\r\nHost: t\r\nX-Slow: aaaaaaaaaaaaaaaaaaaa".utf8)
        for byte in head.prefix(4) {
            for client in slow { client.send([byte]) }
            try between(slow)
            try await Task.sleep(for: .milliseconds(400))
        }
        return slow
    }

    @Test("1,000 idle connections stay open while another client is answered")
    func thousandIdleConnections() async throws {
        // Every client here is 127.0.0.1, as behind a proxy: no per-address limit.
        try await withTestServer(handler: echoHandler, configure: { $0.maxConnectionsPerAddress = 0 }) { port, server in
            var idle: [RawHTTPClient] = []
            for _ in 0..<1_000 { idle.append(try RawHTTPClient(port: port)) }
            // A few of them send nothing, others one keep-alive request each, then go quiet.
            for client in idle.prefix(200) { client.send("GET /once HTTP/1.1\nHost: t\n\n") }
            for client in idle.prefix(200) { #expect(try client.readResponse().status == 200) }
            #expect(eventually { server.metrics.openConnections >= 1_000 })
            let response = try RawHTTPClient.exchange(port: port, "GET /probe HTTP/1.1\nHost: t\n\n")
            #expect(response.status == 200)
            // Answered while all of them were still there, none of them closed to make room.
            #expect(server.metrics.openConnections >= 1_000)
            #expect(idle.allSatisfy { $0.hasHeardNothing() })
        }
    }

    @Test("200 slowloris connections trickling header bytes: another client is answered while every one of them still waits")
    func slowlorisConnections() async throws {
        // A head deadline far beyond the probe's own read timeout, so that no slowness of the
        // machine can let a deadline pass before a probe: only a server held up by the slow
        // clients would answer a probe late, and that probe's read would time out first.
        try await withTestServer(handler: echoHandler, configure: { $0.limits.headTimeoutSeconds = 120 }) { port, _ in
            _ = try await trickleHeads(from: 200, port: port) { slow in
                let response = try RawHTTPClient.exchange(port: port, "GET /probe HTTP/1.1\nHost: t\n\n")
                #expect(response.status == 200)
                #expect(slow.allSatisfy { $0.hasHeardNothing() }, "a slow client was answered or closed before the probe")
            }
        }
    }

    @Test("200 slowloris connections past their head deadline each get a 408 and are closed")
    func slowlorisTimeOut() async throws {
        try await withTestServer(handler: echoHandler, configure: { $0.limits.headTimeoutSeconds = 1.5 }) { port, _ in
            let slow = try await trickleHeads(from: 200, port: port) { _ in }
            for client in slow.prefix(20) {
                let response = try client.readResponse()
                #expect(response.status == 408)
                #expect(client.isClosedByServer())
            }
        }
    }

    @Test("clients that vanish mid-request and mid-response do not disturb the server")
    func vanishingClients() async throws {
        try await withTestServer(handler: echoHandler) { port, server in
            for _ in 0..<50 {
                let midRequest = try RawHTTPClient(port: port)
                midRequest.send("PUT /x HTTP/1.1\nHost: t\nContent-Length: 100\n\nabc")
                midRequest.reset()
                let midResponse = try RawHTTPClient(port: port)
                midResponse.send("GET /big HTTP/1.1\nHost: t\n\n")
                midResponse.reset()
                let midSlow = try RawHTTPClient(port: port)
                midSlow.send("GET /slow HTTP/1.1\nHost: t\n\n")
                midSlow.reset()
            }
            #expect(try RawHTTPClient.exchange(port: port, "GET /probe HTTP/1.1\nHost: t\n\n").status == 200)
            // Every abandoned connection is eventually closed (the slow ones after their response).
            #expect(eventually { server.metrics.openConnections == 0 })
        }
    }

    @Test("a client that pipelines requests and never reads the answers: the server stops reading it, then closes it at the write timeout")
    func unreadPipelinedAnswers() async throws {
        try await withTestServer(handler: echoHandler, configure: { $0.limits.writeTimeoutSeconds = 1 }) { port, server in
            let before = mediumRequestsAnswered.withLock { $0 }
            let greedy = try RawHTTPClient(port: port)
            var sent = 0
            for _ in 0..<2_000 where greedy.send("GET /42k HTTP/1.1\nHost: t\n\n") { sent += 1 }
            // The handler stops being called once the answers waiting for this client exceed the
            // limit (kernel buffers hold a few MB of them); 2,000 answers would be 84 MB.
            var answered = 0
            #expect(eventually {
                let now = mediumRequestsAnswered.withLock { $0 } - before
                defer { answered = now }
                return now > 0 && now == answered && server.metrics.openConnections == 0
            }, "the connection that reads nothing is closed once its output stood still for the write timeout")
            #expect(answered < 500, "\(answered) of \(sent) pipelined requests were answered to a client that read none")
            // Other clients were served all along.
            #expect(try RawHTTPClient.exchange(port: port, "GET /probe HTTP/1.1\nHost: t\n\n").status == 200)
        }
    }

    @Test("a slow reader of pipelined answers gets every one of them, in order")
    func slowReaderOfPipelinedAnswers() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let reader = try RawHTTPClient(port: port)
            let count = 600 // 25 MB of answers, ten times what the kernel buffers and the limit hold
            // Sent from another thread while this one reads: the server stops reading requests
            // while answers wait, so a single thread sending them all first could block for ever.
            reader.sendFromAnotherThread(Array((0..<count).map { "GET /42k HTTP/1.1\r\nHost: t\r\nX-N: \($0)\r\n\r\n" }.joined().utf8))
            for index in 0..<count {
                if index % 50 == 0 { try await Task.sleep(for: .milliseconds(20)) }
                let response = try reader.readResponse()
                #expect(response.status == 200 && response.body.count == 42 * 1024 && response.header("x-n") == "\(index)",
                        "answer \(index): \(response.status), X-N \(response.header("x-n") ?? "none")")
            }
            #expect(try RawHTTPClient.exchange(port: port, "GET /probe HTTP/1.1\nHost: t\n\n").status == 200)
        }
    }

    @Test("one address may hold at most maxConnectionsPerAddress connections; another address is still served")
    func perAddressLimit() async throws {
        try await withTestServer(handler: echoHandler, configure: { $0.maxConnectionsPerAddress = 3 }) { port, server in
            var held = try (0..<3).map { _ in try RawHTTPClient(port: port) }
            for client in held { client.send("GET /held HTTP/1.1\nHost: t\n\n") }
            for client in held { #expect(try client.readResponse().status == 200) }
            let refused = try RawHTTPClient(port: port)
            refused.send("GET /one-too-many HTTP/1.1\nHost: t\n\n")
            let refusal = try refused.readResponse()
            #expect(refusal.status == 503 && refusal.header("content-type") == "application/problem+json")
            #expect(refusal.text.contains("This address has 3 connections open"), "\(refusal.text)")
            #expect(refused.isClosedByServer())
            // Another client machine (a second loopback address) is not held back by the first.
            let other = try RawHTTPClient(port: port, from: "127.0.0.2")
            other.send("GET /other HTTP/1.1\nHost: t\n\n")
            let answer = try other.readResponse()
            #expect(answer.status == 200 && answer.text.hasSuffix("peer=127.0.0.2"))
            // A place given back is a place to take.
            held.removeFirst()
            #expect(eventually { server.metrics.openConnections == 3 })
            #expect(try RawHTTPClient.exchange(port: port, "GET /again HTTP/1.1\nHost: t\n\n").status == 200)
        }
    }

    @Test("refused connections lingering for their 503 do not take the places of served ones")
    func refusalsDoNotTakePlaces() async throws {
        try await withTestServer(handler: echoHandler, configure: { $0.maxConnections = 10; $0.maxConnectionsPerAddress = 2 }) { port, server in
            let held = try (0..<2).map { _ in try RawHTTPClient(port: port) }
            let refused = try (0..<20).map { _ in try RawHTTPClient(port: port) }
            for client in refused { #expect(try client.readResponse().status == 503) }
            #expect(server.metrics.openConnections >= 12, "the refusals still linger")
            // Other addresses get every place the cap leaves: 8 more, two from each, all served.
            let others = try (0..<8).map { try RawHTTPClient(port: port, from: "127.0.0.\(2 + $0 / 2)") }
            for (index, client) in others.enumerated() {
                client.send("GET /other-\(index) HTTP/1.1\nHost: t\n\n")
                #expect(try client.readResponse().status == 200, "connection \(index) from another address")
            }
            _ = held
        }
    }

    @Test("a refused client still sending its request can finish and read the 503, not a reset", arguments: ["cap", "address"])
    func refusalLingers(limit: String) async throws {
        try await withTestServer(handler: echoHandler, configure: {
            if limit == "cap" { $0.maxConnections = 2 } else { $0.maxConnectionsPerAddress = 2 }
        }) { port, server in
            let held = try (0..<2).map { _ in try RawHTTPClient(port: port) }
            #expect(eventually { server.metrics.openConnections >= 2 })
            let refused = try RawHTTPClient(port: port)
            refused.send("PUT /x HTTP/1.1\nHost: t\nContent-Length: 100000\n\n")
            // The rest of the body goes out after the server has answered: a plain close with the
            // head unread resets the connection, and the client fails on its write (as curl does,
            // "Connection reset by peer") without reading the 503.
            try await Task.sleep(for: .milliseconds(300))
            let finished = refused.send([UInt8](repeating: UInt8(ascii: "x"), count: 100_000))
            #expect(finished, "the refused client could not finish its request")
            #expect(try refused.readResponse().status == 503)
            #expect(refused.isClosedByServer())
            _ = held
        }
    }

    @Test("connections over the cap are refused with 503, and service resumes when they close")
    func connectionCap() async throws {
        try await withTestServer(handler: echoHandler, configure: { $0.maxConnections = 10 }) { port, server in
            var held = try (0..<10).map { _ in try RawHTTPClient(port: port) }
            #expect(eventually { server.metrics.openConnections >= 10 })
            let refused = try RawHTTPClient(port: port)
            refused.send("GET / HTTP/1.1\nHost: t\n\n")
            let refusal = try refused.readResponse()
            #expect(refusal.status == 503)
            // The server's own clock, not time(), which reads a coarser one that can still be in
            // the previous second for a few milliseconds after the server has moved to the next.
            let now = SystemClock.wallMilliseconds() / 1000
            let recent = Set((now - 5...now).map { HTTPDate.format(unixSeconds: $0) })
            #expect(refusal.header("date").map(recent.contains) == true,
                    "the refusal is dated now, like every response: got \(refusal.header("date") ?? "no date") at \(HTTPDate.format(unixSeconds: now))")
            held.removeAll()
            #expect(eventually { server.metrics.openConnections == 0 })
            #expect(try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\nHost: t\n\n").status == 200)
        }
    }

    @Test("drain: a slow request in flight completes, idle connections close, new connections are refused")
    func drainFinishesInFlight() async throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.accessLogFD = open("/dev/null", O_WRONLY)
        defer { close(configuration.accessLogFD) }
        let server = HTTPServer(configuration: configuration, handler: echoHandler)
        let port = try server.start()
        let idle = try RawHTTPClient(port: port)
        let busy = try RawHTTPClient(port: port)
        let before = slowRequestsReceived.withLock { $0 }
        busy.send("GET /slow HTTP/1.1\nHost: t\n\n")
        #expect(eventually { slowRequestsReceived.withLock { $0 } > before }, "the slow request reached the handler")
        let started = Date()
        server.beginDrain()
        let response = try busy.readResponse()
        #expect(response.text == "slow done")
        #expect(response.header("connection") == "close")
        #expect(idle.isClosedByServer())
        server.waitUntilStopped()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(server.currentState == .stopped)
        #expect(throws: (any Error).self) { try RawHTTPClient(port: port) }
    }
}
