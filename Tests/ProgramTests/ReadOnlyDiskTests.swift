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
        let shim = try ReadOnlyDiskShim(in: directory)
        let data = shim.folder
        let server = try RatingsProcess(["serve", "--port", "0", "--database", "\(data)/ratings.sqlite"], environment: shim.environment)
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        func request(_ text: String) throws -> RawHTTPClient.Response { try RawHTTPClient.exchange(port: port, text) }
        func put(_ rater: String, _ stars: Int) throws -> Int {
            let body = "{\"stars\":\(stars)}"
            return try request("PUT /v1/items/i/ratings/\(rater) HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: \(body.utf8.count)\n\n\(body)").status
        }
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
}
