import Foundation
import Glibc
import TestSupport
import Testing

/// Standard error while the server runs: failures and start-up notes in the chosen format, written
/// by the error log's own thread, so that a standard error nobody reads holds up no request.
@Suite("The error log: one line per failure in the chosen format, and a stalled standard error holds up no request", .serialized)
struct ErrorLogTests {
    @Test("--log-format json: every line on standard error is one JSON object; a storage failure names its request id, once", .enabled(if: ReadOnlyDiskShim.usable, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func jsonLines() throws {
        let directory = try TemporaryDirectory("ratings-error-json")
        defer { directory.remove() }
        let shim = try ReadOnlyDiskShim(in: directory)
        let server = try RatingsProcess(["serve", "--port", "0", "--log-format", "json", "--database", "\(shim.folder)/ratings.sqlite"],
                                        environment: shim.environment)
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        shim.setReadOnly(true)
        let refused = try RawHTTPClient.exchange(port: port, "PUT /v1/items/i/ratings/r HTTP/1.1\nHost: t\nX-Request-ID: json-err-1\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":2}")
        #expect(refused.status == 503)
        shim.setReadOnly(false)
        server.send(SIGTERM)
        #expect(server.waitForExit(timeout: 20) == 0)

        let objects = try server.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
        }
        for object in objects {
            #expect(Set(object.keys) == ["time", "level", "requestId", "message"], "\(object)")
            #expect((object["time"] as? String)?.hasSuffix("Z") == true)
        }
        let failures = objects.filter { ($0["message"] as? String)?.hasPrefix("storage failure") == true }
        #expect(failures.count == 1, "\(server.stderr)")
        #expect(failures.first?["level"] as? String == "error" && failures.first?["requestId"] as? String == "json-err-1")
        // The start-up notes take the same form, at their own level.
        let open = objects.first { ($0["message"] as? String)?.contains("the service runs open") == true }
        #expect(open?["level"] as? String == "warning" && open?["requestId"] is NSNull)
        #expect(objects.contains { $0["level"] as? String == "info" && ($0["message"] as? String)?.hasPrefix("limits: ") == true })
    }

    @Test("a standard error nobody reads holds up no request: 50 failing writes answered 503 at once while it is a full pipe, and every failure logged or counted once it is read", .enabled(if: ReadOnlyDiskShim.usable, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func stalledErrorLogHoldsUpNothing() throws {
        let directory = try TemporaryDirectory("ratings-stalled-errors")
        defer { directory.remove() }
        let shim = try ReadOnlyDiskShim(in: directory)
        let server = try ServerWritingToFIFO(in: directory, writing: .errors, database: "\(shim.folder)/ratings.sqlite",
                                             environment: shim.environment)
        defer { server.stop() }
        let port = server.port
        // Fill the pipe, so that everything the server writes to standard error from now on waits.
        #expect(server.fill())

        shim.setReadOnly(true)
        let client = try RawHTTPClient(port: port, timeoutSeconds: 5)
        let started = Date()
        var refused = 0
        for n in 0..<50 {
            guard client.send("PUT /v1/items/i/ratings/r\(n) HTTP/1.1\nHost: t\nX-Request-ID: stalled-\(n)\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":2}"),
                  let response = try? client.readResponse(), response.status == 503 else { break }
            refused += 1
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(refused == 50, "the server stopped answering after \(refused) writes")
        // Not a measurement: a loop that waited for standard error took 2 s for each write.
        #expect(elapsed < 20, "50 refused writes took \(elapsed) s")
        #expect(try RawHTTPClient.exchange(port: port, "GET /v1/items/i HTTP/1.1\nHost: t\n\n").status == 200)
        shim.setReadOnly(false)

        server.process.send(SIGTERM)
        let log = server.readToEnd(chunkSize: 65_536) // to the end: the server's exit closes the pipe's last writer
        #expect(server.process.waitForExit(timeout: 20) == 0)
        let lines = String(decoding: log, as: UTF8.self).split(separator: "\n").map(String.init)
        let failures = lines.filter { $0.contains("storage failure") }
        // The same failure is written at most once a second, the next line saying how many were
        // held back; what is still held back at stop is counted on a line of its own.
        var accounted = 0
        for line in failures {
            if let count = line.firstMatch(of: /^(\d+) more like this since it was last logged: storage failure/)?.1 {
                accounted += Int(count) ?? 0
            } else {
                #expect(line.hasPrefix("request stalled-"), "\(line)")
                accounted += 1 + (line.firstMatch(of: /\(and (\d+) more like it since it was last logged\)$/).flatMap { Int($0.1) } ?? 0)
            }
        }
        #expect(accounted == 50, "\(failures)")
        #expect(failures.first?.hasPrefix("request stalled-0: storage failure") == true)
        #expect(failures.count < 50, "the same failure 50 times in a row is not 50 lines: \(failures.count)")
        #expect(!lines.contains { $0.contains("dropped") })
    }
}
