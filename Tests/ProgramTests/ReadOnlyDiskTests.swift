import Foundation
import TestSupport
import Testing

/// The binary under test runs with a shim that can turn its database folder read-only, the way a
/// remount would (a real remount fails with EBUSY while SQLite holds the file open).
@Suite("A read-only disk: writes get 503, reads keep working, nothing stored is lost")
struct ReadOnlyDiskTests {
    @Test("writes fail with 503 while the disk is read-only, and work again after", .enabled(if: ReadOnlyDiskShim.usable, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func readOnlyDisk() throws {
        let directory = try TemporaryDirectory("ratings-readonly")
        defer { directory.remove() }
        let disk = try ShimmedServer(in: directory)
        defer { disk.server.stop() }
        let (shim, server, data) = (disk.shim, disk.server, disk.shim.folder)
        func request(_ text: String) throws -> RawHTTPClient.Response { try disk.request(text) }
        func put(_ rater: String, _ stars: Int) throws -> Int { try disk.put(rater, stars).status }
        for n in 0..<20 { #expect(try put("before-\(n)", n % 5 + 1) == 201) }

        shim.setReadOnly(true)
        let refused = try request("PUT /v1/items/i/ratings/during HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":2}")
        #expect(refused.status == 503)
        #expect(refused.header("content-type") == "application/problem+json")
        #expect(try request("DELETE /v1/items/i/ratings/before-0 HTTP/1.1\nHost: t\n\n").status == 503)
        let summary = try request("GET /v1/items/i HTTP/1.1\nHost: t\n\n")
        #expect(summary.status == 200 && summary.text.contains("\"count\":20"), "reads keep working on a read-only disk")
        #expect(try request("GET /v1/items/i/ratings/before-3 HTTP/1.1\nHost: t\n\n").status == 200)

        shim.setReadOnly(false)
        #expect(try put("after", 5) == 201)
        server.send(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0)
        #expect(try SQLiteFixture.scalar("\(data)/ratings.sqlite", "PRAGMA integrity_check") == "ok")
        let stored = try SQLiteFixture.ratings("\(data)/ratings.sqlite")
        #expect(stored.count == 21)
        #expect(stored["i/during"] == nil && stored["i/after"] == 5 && stored["i/before-0"] == 1)
    }

    @Test("a write whose WAL cannot be made durable (the disk's sync fails) is answered 503, never 201, and retrying it once the disk recovers stores it once", .enabled(if: ReadOnlyDiskShim.usable, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func failingSync() throws {
        let directory = try TemporaryDirectory("ratings-failing-sync")
        defer { directory.remove() }
        let disk = try ShimmedServer(in: directory)
        defer { disk.server.stop() }
        let (shim, server, data) = (disk.shim, disk.server, disk.shim.folder)
        func request(_ text: String) throws -> RawHTTPClient.Response { try disk.request(text) }
        func put(_ rater: String, _ stars: Int) throws -> RawHTTPClient.Response { try disk.put(rater, stars) }
        #expect(try put("before", 4).status == 201)

        shim.setSyncFailing(true)
        let refused = try put("unsynced", 2)
        #expect(refused.status == 503)
        #expect(refused.header("content-type") == "application/problem+json")
        #expect(refused.text.contains("retry"), "the detail says what to do: \(refused.text)")

        shim.setSyncFailing(false)
        // The refused write may or may not have been stored; the same PUT again settles it.
        let retried = try put("unsynced", 2)
        #expect(retried.status == 200 || retried.status == 201)
        let summary = try request("GET /v1/items/i HTTP/1.1\nHost: t\n\n")
        #expect(summary.status == 200 && summary.text.contains("\"count\":2"), "\(summary.text)")
        server.send(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0)
        let stored = try SQLiteFixture.ratings("\(data)/ratings.sqlite")
        #expect(stored == ["i/before": 4, "i/unsynced": 2])
    }
}

/// The server on a database in a folder the fault shim guards.
private struct ShimmedServer {
    let shim: ReadOnlyDiskShim
    let server: RatingsProcess
    let port: Int

    init(in directory: TemporaryDirectory) throws {
        shim = try ReadOnlyDiskShim(in: directory)
        server = try RatingsProcess(["serve", "--port", "0", "--database", "\(shim.folder)/ratings.sqlite"], environment: shim.environment)
        guard let port = server.waitForPort() else {
            server.stop()
            throw ShimmedServerError.noPort(server.stderr)
        }
        self.port = port
    }

    func request(_ text: String) throws -> RawHTTPClient.Response { try RawHTTPClient.exchange(port: port, text) }

    /// A `PUT` of `stars` by `rater` on item `i`.
    func put(_ rater: String, _ stars: Int) throws -> RawHTTPClient.Response {
        let body = "{\"stars\":\(stars)}"
        return try request("PUT /v1/items/i/ratings/\(rater) HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: \(body.utf8.count)\n\n\(body)")
    }
}

private enum ShimmedServerError: Error {
    case noPort(String)
}
