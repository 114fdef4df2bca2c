import Foundation
import Glibc
import HTTP1
import HTTPServer
import Locking
import TestSupport
import Testing

@Suite("Server basics over real sockets")
struct ServerBasicsTests {
    @Test("keep-alive: 5,000 requests on one connection")
    func fiveThousandRequestsOnOneConnection() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port)
            for i in 0..<5_000 {
                client.send("GET /n/\(i) HTTP/1.1\nHost: t\n\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                guard response.text.hasPrefix("GET /n/\(i) ") else {
                    Issue.record("request \(i) got \(response.text)")
                    return
                }
            }
        }
    }

    @Test("pipelined requests are answered in order, a slow one holding back the next")
    func pipelinedInOrder() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("GET /a HTTP/1.1\nHost: t\n\nGET /slow HTTP/1.1\nHost: t\n\nPUT /c HTTP/1.1\nHost: t\nContent-Length: 3\n\nabcGET /d HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().text.hasPrefix("GET /a "))
            #expect(try client.readResponse().text == "slow done")
            #expect(try client.readResponse().text.hasPrefix("PUT /c body=3"))
            #expect(try client.readResponse().text.hasPrefix("GET /d "))
        }
    }

    @Test("a pipelined flood behind a slow request: reading pauses once 128 KiB wait and resumes as they are answered, 12,000 requests answered in order")
    func pipelinedFloodPausesAndResumes() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port, timeoutSeconds: 20)
            var flood = "GET /slow HTTP/1.1\r\nHost: t\r\n\r\n"
            for i in 0..<12_000 { flood += "GET /n/\(i) HTTP/1.1\r\nHost: t\r\n\r\n" }
            let bytes = Array(flood.utf8)
            #expect(bytes.count > 3 * 128 * 1024, "more than the server buffers, its socket and ours hold at once")
            // Sent from another thread while this one reads, as a pipelining client does: the
            // server stops reading while the slow answer is pending, and the rest waits in the sockets.
            let fd = client.fd
            let sent = DispatchSemaphore(value: 0)
            let complete = Locked(false)
            OwnThread.run {
                var offset = 0
                while offset < bytes.count {
                    let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                    if count <= 0 { break }
                    offset += count
                }
                complete.withLock { $0 = offset == bytes.count }
                sent.signal()
            }
            #expect(try client.readResponse().text == "slow done")
            for i in 0..<12_000 {
                let text = try client.readResponse().text
                guard text.hasPrefix("GET /n/\(i) ") else {
                    Issue.record("request \(i) got \(text)")
                    break
                }
            }
            sent.wait()
            #expect(complete.withLock { $0 })
        }
    }

    @Test("every response has Date and Content-Length; HEAD has the length but no body")
    func headAndHeaders() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("HEAD /etag HTTP/1.1\nHost: t\n\n")
            let head = try client.readResponse(headRequest: true)
            #expect(head.status == 200 && head.body.isEmpty)
            #expect(head.header("content-length") == "6")
            #expect(head.header("date")?.hasSuffix(" GMT") == true)
            client.send("GET /etag HTTP/1.1\nHost: t\n\n")
            #expect(try client.readResponse().text == "tagged")
        }
    }

    @Test("the server leaves responses as the handler wrote them: no 304 of its own, no request id")
    func responsesAreTheHandlers() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let response = try RawHTTPClient.exchange(port: port, "GET /etag HTTP/1.1\nHost: t\nIf-None-Match: \"v1\"\nX-Request-ID: abc\n\n")
            #expect(response.status == 200 && response.text == "tagged", "conditional GET is the application's middleware")
            #expect(response.header("x-request-id") == nil)
            let echoed = try RawHTTPClient.exchange(port: port, "GET /who HTTP/1.1\nHost: t\n\n")
            #expect(echoed.text.hasSuffix("peer=127.0.0.1"), "the handler learns the peer's address")
        }
    }

    @Test("Expect: 100-continue gets 100 before the body is sent")
    func expectContinue() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("PUT /x HTTP/1.1\nHost: t\nExpect: 100-continue\nContent-Length: 4\n\n")
            #expect(try client.readInterim() == 100)
            client.send("body", crlf: false)
            #expect(try client.readResponse().text.hasPrefix("PUT /x body=4"))
        }
    }

    @Test("Connection: close is honoured both ways, and HTTP/1.0 closes by default")
    func connectionClose() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let byClient = try RawHTTPClient(port: port)
            byClient.send("GET / HTTP/1.1\nHost: t\nConnection: close\n\n")
            let first = try byClient.readResponse()
            #expect(first.header("connection") == "close")
            #expect(byClient.isClosedByServer())

            let byServer = try RawHTTPClient(port: port)
            byServer.send("GET /close HTTP/1.1\nHost: t\n\n")
            #expect(try byServer.readResponse().header("connection") == "close")
            #expect(byServer.isClosedByServer())

            let old = try RawHTTPClient(port: port)
            old.send("GET / HTTP/1.0\n\n")
            #expect(try old.readResponse().status == 200)
            #expect(old.isClosedByServer())

            let oldKeepAlive = try RawHTTPClient(port: port)
            oldKeepAlive.send("GET / HTTP/1.0\nConnection: keep-alive\n\n")
            #expect(try oldKeepAlive.readResponse().header("connection") == "keep-alive")
            oldKeepAlive.send("GET /again HTTP/1.0\n\n")
            #expect(try oldKeepAlive.readResponse().text.hasPrefix("GET /again"))
        }
    }

    @Test("a malformed request gets a problem+json answer and the connection closes", arguments: [
        ("GET / HTTP/1.1\nHost: t\nHost: u\n\n", 400),
        ("GET / HTTP/1.1\nHost: t\nContent-Length: 1\nTransfer-Encoding: chunked\n\n", 400),
        ("GET / HTTP/2.0\nHost: t\n\n", 505),
        ("PUT / HTTP/1.1\nHost: t\nTransfer-Encoding: gzip\n\n", 501),
        ("GET /\(String(repeating: "a", count: 9_000)) HTTP/1.1\nHost: t\n\n", 414),
        ("GET / HTTP/1.1\nHost: t\nX: \(String(repeating: "a", count: 17_000))\n\n", 431),
    ])
    func malformedRequests(request: String, status: Int) async throws {
        let refusals = Locked<[Int]>([])
        let handler = HTTPHandler(handle: echoHandler.handle, refused: { problem, _ in
            refusals.withLock { $0.append(problem.status) }
            var response = problem.response
            response.headers.add("x-rendered-by", "handler")
            return response
        })
        try await withTestServer(handler: handler) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send(request)
            let response = try client.readResponse()
            #expect(response.status == status)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(response.header("connection") == "close")
            #expect(response.text.contains("\"status\":\(status)"))
            #expect(client.isClosedByServer())
            #expect(refusals.withLock { $0 } == [status], "the handler is asked for the refusal's answer, once")
            #expect(response.header("x-rendered-by") == "handler", "the handler's answer is the one sent")
        }
    }

    @Test("a body over 64 KiB gets 413 even while the client keeps sending, and others are served")
    func oversizedBodyStillGets413() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("PUT /x HTTP/1.1\nHost: t\nTransfer-Encoding: chunked\n\n")
            let chunk = "10000\r\n" + String(repeating: "z", count: 65_536) + "\r\n"
            _ = client.send(chunk + chunk, crlf: false)
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.text.contains("65536"))
            let other = try RawHTTPClient.exchange(port: port, "GET /still HTTP/1.1\nHost: t\n\n")
            #expect(other.status == 200)
        }
    }
}

@Suite("Server start-up and shutdown")
struct ServerLifecycleTests {
    @Test("a port already in use fails start-up cleanly: the error names bind, the server stays idle and can start elsewhere")
    func startFailsCleanly() async throws {
        try await withTestServer(handler: echoHandler) { port, _ in
            var configuration = ServerConfiguration()
            configuration.port = port
            let second = HTTPServer(configuration: configuration, handler: echoHandler)
            #expect(throws: SystemError.self) { try second.start() }
            do {
                try second.start()
            } catch let error as SystemError {
                #expect(error.operation == "bind" && error.errno == EADDRINUSE)
            }
            #expect(second.currentState == .idle)
            configuration.port = 0
            let third = HTTPServer(configuration: configuration, handler: echoHandler)
            let thirdPort = try third.start()
            #expect(try RawHTTPClient.exchange(port: thirdPort, "GET / HTTP/1.1\nHost: t\n\n").status == 200)
            third.beginDrain()
            third.waitUntilStopped()
            #expect(third.currentState == .stopped)
        }
    }

    @Test("an idle server drains at once; waiting twice and draining twice are harmless")
    func idleDrain() throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, handler: echoHandler)
        try server.start()
        #expect(server.currentState == .running)
        server.beginDrain()
        server.beginDrain()
        server.waitUntilStopped()
        server.waitUntilStopped()
        #expect(server.currentState == .stopped)
    }
}
