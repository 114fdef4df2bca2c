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
        for n in 0..<20 { #expect(try disk.put("before-\(n)", n % 5 + 1).status == 201) }

        disk.shim.setReadOnly(true)
        let refused = try disk.request("PUT /v1/items/i/ratings/during HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":2}")
        #expect(refused.status == 503)
        #expect(refused.header("content-type") == "application/problem+json")
        #expect(try disk.request("DELETE /v1/items/i/ratings/before-0 HTTP/1.1\nHost: t\n\n").status == 503)
        let summary = try disk.request("GET /v1/items/i HTTP/1.1\nHost: t\n\n")
        #expect(summary.status == 200 && summary.text.contains("\"count\":20"), "reads keep working on a read-only disk")
        #expect(try disk.request("GET /v1/items/i/ratings/before-3 HTTP/1.1\nHost: t\n\n").status == 200)

        disk.shim.setReadOnly(false)
        #expect(try disk.put("after", 5).status == 201)
        disk.server.send(SIGTERM)
        #expect(disk.server.waitForExit(timeout: 10) == 0)
        #expect(try SQLiteFixture.scalar(disk.database, "PRAGMA integrity_check") == "ok")
        let stored = try SQLiteFixture.ratings(disk.database)
        #expect(stored.count == 21)
        #expect(stored["i/during"] == nil && stored["i/after"] == 5 && stored["i/before-0"] == 1)
    }

    @Test("a write whose WAL cannot be made durable (the disk's sync fails) is answered 503, never 201, and retrying it once the disk recovers stores it once", .enabled(if: ReadOnlyDiskShim.usable, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func failingSync() throws {
        let directory = try TemporaryDirectory("ratings-failing-sync")
        defer { directory.remove() }
        let disk = try ShimmedServer(in: directory)
        defer { disk.server.stop() }
        #expect(try disk.put("before", 4).status == 201)

        disk.shim.setSyncFailing(true)
        let refused = try disk.put("unsynced", 2)
        #expect(refused.status == 503)
        #expect(refused.header("content-type") == "application/problem+json")
        #expect(refused.text.contains("retry"), "the detail says what to do: \(refused.text)")

        disk.shim.setSyncFailing(false)
        // The refused write may or may not have been stored; the same PUT again settles it.
        let retried = try disk.put("unsynced", 2)
        #expect(retried.status == 200 || retried.status == 201)
        let summary = try disk.request("GET /v1/items/i HTTP/1.1\nHost: t\n\n")
        #expect(summary.status == 200 && summary.text.contains("\"count\":2"), "\(summary.text)")
        disk.server.send(SIGTERM)
        #expect(disk.server.waitForExit(timeout: 10) == 0)
        let stored = try SQLiteFixture.ratings(disk.database)
        #expect(stored == ["i/before": 4, "i/unsynced": 2])
    }
}

/// The server on a database in a folder the fault shim guards.
private struct ShimmedServer {
    let shim: ReadOnlyDiskShim
    let server: RatingsServer
    /// The server's database file.
    let database: String

    init(in directory: TemporaryDirectory) throws {
        shim = try ReadOnlyDiskShim(in: directory)
        database = "\(shim.folder)/ratings.sqlite"
        server = try RatingsServer(["--database", database], environment: shim.environment)
    }

    func request(_ text: String) throws -> RawHTTPClient.Response { try server.exchange(text) }

    /// A `PUT` of `stars` by `rater` on item `i`.
    func put(_ rater: String, _ stars: Int) throws -> RawHTTPClient.Response {
        let body = "{\"stars\":\(stars)}"
        return try request("PUT /v1/items/i/ratings/\(rater) HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: \(body.utf8.count)\n\n\(body)")
    }
}
