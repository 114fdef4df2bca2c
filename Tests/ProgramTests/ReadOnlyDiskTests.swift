import Foundation
import TestSupport
import Testing

/// The binary under test runs with a shim that can turn its database folder read-only, the way a
/// remount would (a real remount fails with EBUSY while SQLite holds the file open).
@Suite("A read-only disk: writes get 503, reads keep working, nothing stored is lost")
struct ReadOnlyDiskTests {
    /// Sanitizer builds put their runtime first in the process; a preloaded shim would displace it.
    static var plainBuild: Bool { !RatingsProcess.binaryPath.contains("/sanitize-") }

    @Test("writes fail with 503 while the disk is read-only, and work again after", .enabled(if: plainBuild, "sanitizer builds cannot take an LD_PRELOAD shim"))
    func readOnlyDisk() throws {
        let directory = try TemporaryDirectory("ratings-readonly")
        defer { directory.remove() }
        let shim = directory.file("readonly-disk-shim.so")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/readonly-disk-shim.c").standardizedFileURL.path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        compiler.arguments = ["-shared", "-fPIC", "-O1", "-o", shim, source, "-ldl"]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "the fault shim must compile")

        let data = directory.file("data")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let server = try RatingsProcess(["serve", "--port", "0", "--database", "\(data)/ratings.sqlite"],
                                        environment: ["LD_PRELOAD": shim, "RATINGS_FAULT_DIR": data])
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        func request(_ text: String) throws -> RawHTTPClient.Response { try RawHTTPClient.exchange(port: port, text) }
        func put(_ rater: String, _ stars: Int) throws -> Int {
            let body = "{\"stars\":\(stars)}"
            return try request("PUT /v1/items/i/ratings/\(rater) HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: \(body.utf8.count)\n\n\(body)").status
        }
        for n in 0..<20 { #expect(try put("before-\(n)", n % 5 + 1) == 201) }

        _ = FileManager.default.createFile(atPath: "\(data)/.readonly", contents: nil)
        let refused = try request("PUT /v1/items/i/ratings/during HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":2}")
        #expect(refused.status == 503)
        #expect(refused.header("content-type") == "application/problem+json")
        #expect(try request("DELETE /v1/items/i/ratings/before-0 HTTP/1.1\nHost: t\n\n").status == 503)
        let summary = try request("GET /v1/items/i HTTP/1.1\nHost: t\n\n")
        #expect(summary.status == 200 && summary.text.contains("\"count\":20"), "reads keep working on a read-only disk")
        #expect(try request("GET /v1/items/i/ratings/before-3 HTTP/1.1\nHost: t\n\n").status == 200)

        try FileManager.default.removeItem(atPath: "\(data)/.readonly")
        #expect(try put("after", 5) == 201)
        server.send(SIGTERM)
        #expect(server.waitForExit(timeout: 10) == 0)
        #expect(try SQLiteFixture.scalar("\(data)/ratings.sqlite", "PRAGMA integrity_check") == "ok")
        let stored = try SQLiteFixture.ratings("\(data)/ratings.sqlite")
        #expect(stored.count == 21)
        #expect(stored["i/during"] == nil && stored["i/after"] == 5 && stored["i/before-0"] == 1)
    }
}
