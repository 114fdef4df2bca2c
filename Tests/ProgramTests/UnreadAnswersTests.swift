import Foundation
import Glibc
import TestSupport
import Testing

/// The resident memory of process `pid`, in KiB (`VmRSS` of /proc/PID/status).
private func residentKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

private func pipelined(_ count: Int, id prefix: String) -> [UInt8] {
    Array((0..<count).map { "GET /openapi.yaml HTTP/1.1\r\nHost: t\r\nX-Request-ID: \(prefix)-\($0)\r\n\r\n" }.joined().utf8)
}

@Suite("A client that leaves its answers unread costs the real binary little memory", .serialized)
struct UnreadAnswersTests {
    @Test("5,000 pipelined GET /openapi.yaml never read grow the server by under 10 MiB; the same 5,000 read slowly all arrive, in order")
    func pipelinedOpenAPIDocument() async throws {
        let directory = try TemporaryDirectory("ratings-unread")
        defer { directory.remove() }
        let server = try RatingsServer(["--database", directory.file("db.sqlite")])
        defer { server.stop() }
        let port = server.port
        let document = try RawHTTPClient.exchange(port: port, "GET /openapi.yaml HTTP/1.1\nHost: t\n\n")
        #expect(document.status == 200 && document.body.count > 40_000)
        let before = residentKiB(server.pid)

        // Never read: the server answers until the kernel's buffers and its own limit are full,
        // then reads no more of this client's requests.
        let greedy = try RawHTTPClient(port: port)
        greedy.sendFromAnotherThread(pipelined(5_000, id: "unread"))
        // Answered so far, by the access log (written every 50 ms): settled once it stops growing.
        func answeredSoFar() -> Int { server.stdout.components(separatedBy: "id=unread-").count - 1 }
        var answered = 0
        for _ in 0..<40 {
            let earlier = answeredSoFar()
            try await Task.sleep(for: .milliseconds(500))
            answered = answeredSoFar()
            if answered > 0 && answered == earlier { break }
        }
        let grown = residentKiB(server.pid) - before
        #expect(answered < 1_000, "\(answered) of 5,000 answers were made for a client that read none")
        #expect(grown < 10 * 1024, "the server grew by \(grown) KiB serving a client that reads nothing")
        print("unread pipelined answers: \(answered) of 5,000 answered, resident memory grew by \(grown) KiB")

        // Read slowly, in pieces, with pauses: every answer arrives, in the order asked.
        let slow = try RawHTTPClient(port: port)
        slow.sendFromAnotherThread(pipelined(5_000, id: "slow"))
        var inOrder = 0
        for index in 0..<5_000 {
            if index % 100 == 0 { try await Task.sleep(for: .milliseconds(10)) }
            let response = try slow.readResponse()
            guard response.status == 200, response.header("x-request-id") == "slow-\(index)",
                  response.body.count == document.body.count else {
                Issue.record("answer \(index): \(response.status), id \(response.header("x-request-id") ?? "none")")
                break
            }
            inOrder += 1
        }
        #expect(inOrder == 5_000)
        #expect(residentKiB(server.pid) - before < 10 * 1024, "the server grew by \(residentKiB(server.pid) - before) KiB for a slow reader")
        // Other clients are served meanwhile and after.
        #expect(try RawHTTPClient.exchange(port: port, "GET /healthz HTTP/1.1\nHost: t\n\n").status == 200)
    }
}
