import Foundation
import TestSupport
import Testing

@Suite("Errors of the HTTP layer through the real binary: the API's problem types, a request id, a log line naming it", .serialized)
struct HTTPLayerErrorsTests {
    @Test("400, 413, 414, 431, 501 and 505 each carry X-Request-ID and their kind, and the access log names the id")
    func refusalsCarryRequestIDs() throws {
        let directory = try TemporaryDirectory("ratings-http-errors")
        defer { directory.remove() }
        let server = try RatingsServer(["--database", directory.file("db.sqlite")])
        defer { server.stop() }
        let port = server.port
        let cases: [(request: String, status: Int, kind: String)] = [
            ("GET /v1/items/i HTTP/1.1\n\n", 400, "malformed-request"),
            ("PUT /v1/items/i/ratings/r HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 70000\n\n", 413, "content-too-large"),
            ("GET /\(String(repeating: "a", count: 9_000)) HTTP/1.1\nHost: t\n\n", 414, "uri-too-long"),
            ("GET /v1/items/i HTTP/1.1\nHost: t\nX-Big: \(String(repeating: "b", count: 20_000))\n\n", 431, "header-fields-too-large"),
            ("PUT /v1/items/i/ratings/r HTTP/1.1\nHost: t\nTransfer-Encoding: gzip, chunked\n\n", 501, "not-implemented"),
            ("GET /v1/items/i HTTP/2.0\nHost: t\n\n", 505, "http-version-not-supported"),
        ]
        var ids: [String] = []
        for (request, status, kind) in cases {
            let response = try RawHTTPClient.exchange(port: port, request)
            #expect(response.status == status && response.header("content-type") == "application/problem+json", "\(kind)")
            #expect(object(response)["type"] as? String == "urn:ratings:problem:\(kind)", "\(response.text)")
            let id = try #require(response.header("x-request-id"), "\(kind) has no X-Request-ID")
            #expect(!id.isEmpty && !ids.contains(id))
            ids.append(id)
        }
        #expect(eventually { ids.allSatisfy { server.stdout.contains(" id=\($0)\n") } }, "\(server.stdout.suffix(1_000))")
        for (id, (_, status, _)) in zip(ids, cases) {
            let line = server.stdout.split(separator: "\n").first { $0.hasSuffix(" id=\(id)") } ?? ""
            #expect(line.contains("\"-\" \(status) "), "\(line)")
        }
    }
}
