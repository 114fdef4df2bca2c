@testable import HTTP1
import TestSupport
import Testing

@Suite("The parser reads valid requests, split anywhere")
struct ParserAcceptsTests {
    static let valid: [(String, [UInt8], String, [UInt8])] = [
        ("simple GET", crlf("GET /v1/items/a HTTP/1.1\nHost: x\n\n"), "/v1/items/a", []),
        ("HTTP/1.0 without Host", crlf("GET / HTTP/1.0\n\n"), "/", []),
        ("leading empty line", crlf("\nGET /x HTTP/1.1\nHost: x\n\n"), "/x", []),
        ("Content-Length body", crlf("PUT /r HTTP/1.1\nHost: x\nContent-Length: 11\n\n") + Array(#"{"stars":4}"#.utf8), "/r", Array(#"{"stars":4}"#.utf8)),
        ("repeated equal Content-Length", crlf("PUT /r HTTP/1.1\nHost: x\nContent-Length: 2\nContent-Length: 2\n\nok"), "/r", Array("ok".utf8)),
        ("chunked with extension and trailer",
         crlf("PUT /r HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n4;name=value\n{\"st\n7\nars\":4}\n0\nX-Trailer: yes\n\n"),
         "/r", Array(#"{"stars":4}"#.utf8)),
        ("chunked, case-insensitive", crlf("PUT /r HTTP/1.1\nHost: x\nTransfer-Encoding: Chunked\n\n2\nok\n0\n\n"), "/r", Array("ok".utf8)),
        ("obs-text in a value", crlf("GET /o HTTP/1.1\nHost: x\nX-Name: caf") + [0xC3, 0xA9] + crlf("\n\n"), "/o", []),
        ("query string", crlf("GET /v1/display?value=3.3&max=5 HTTP/1.1\nHost: x\n\n"), "/v1/display?value=3.3&max=5", []),
        ("zero Content-Length", crlf("DELETE /r HTTP/1.1\nHost: x\nContent-Length: 0\n\n"), "/r", []),
        ("absolute form", crlf("GET http://example.com:8080/v1/items/a?lang=es HTTP/1.1\nHost: other\n\n"), "/v1/items/a?lang=es", []),
        ("absolute form without a path", crlf("GET HTTP://example.com HTTP/1.1\n\n"), "/", []),
        ("absolute form, https, query only", crlf("GET https://example.com?x=1 HTTP/1.0\n\n"), "/?x=1", []),
    ]

    @Test("valid requests parse whole and at every split", arguments: valid.indices)
    func parsesAtEveryOffset(index: Int) {
        let (name, bytes, target, body) = Self.valid[index]
        for split in everySplit(bytes) {
            let (requests, failure) = parseStream(split)
            #expect(failure == nil, "\(name) split at \(split[0].count)")
            #expect(requests.count == 1, "\(name) split at \(split[0].count)")
            #expect(requests.first?.target == target)
            #expect(requests.first?.body == body, "\(name) split at \(split[0].count)")
        }
        // And byte by byte.
        let (requests, failure) = parseStream(bytes.map { [$0] })
        #expect(failure == nil && requests.count == 1 && requests.first?.body == body, "\(name) byte by byte")
    }

    @Test("header fields: lowercased names, trimmed values, order kept")
    func headerFields() {
        let (requests, _) = parseStream([crlf("GET / HTTP/1.1\nHost: example\nX-A:  one \t\nx-a: two\n\n")])
        let head = requests[0].head
        #expect(head.headers["x-a"] == "one")
        #expect(head.headers.values("x-a") == ["one", "two"])
        #expect(head.headers["host"] == "example")
        #expect(head.version == .http11)
    }

    @Test("an absolute-form target is served as its origin form; its authority replaces Host (RFC 9112 §3.2.2)")
    func absoluteForm() {
        let (requests, failure) = parseStream([crlf("GET http://ratings.example:8080/v1/items/a HTTP/1.1\nHost: elsewhere\nHost: twice\n\n")])
        #expect(failure == nil)
        #expect(requests.first?.target == "/v1/items/a" && requests.first?.headers.values("host") == ["ratings.example:8080"])
        let missingHost = parseStream([crlf("GET http://h/x HTTP/1.1\n\n")])
        #expect(missingHost.failure == nil && missingHost.requests.first?.headers["host"] == "h")
    }

    @Test("pipelined requests come out in order")
    func pipelinedInOrder() {
        let bytes = crlf("GET /1 HTTP/1.1\nHost: x\n\nPUT /2 HTTP/1.1\nHost: x\nContent-Length: 1\n\nzGET /3 HTTP/1.1\nHost: x\n\n")
        for split in everySplit(bytes) {
            let (requests, failure) = parseStream(split)
            #expect(failure == nil)
            #expect(requests.map(\.target) == ["/1", "/2", "/3"])
        }
    }

    @Test("keep-alive follows the version and Connection", arguments: [
        ("GET / HTTP/1.1\nHost: x\n\n", true), ("GET / HTTP/1.1\nHost: x\nConnection: close\n\n", false),
        ("GET / HTTP/1.0\n\n", false), ("GET / HTTP/1.0\nConnection: keep-alive\n\n", true),
        ("GET / HTTP/1.1\nHost: x\nConnection: foo, Close\n\n", false),
    ])
    func keepAliveRules(text: String, keepAlive: Bool) {
        #expect(parseStream([crlf(text)]).requests.first?.head.keepAlive == keepAlive)
    }

    @Test("Expect: 100-continue is seen once the head is in")
    func expectContinue() {
        var parser = HTTPRequestParser()
        let bytes = crlf("PUT /r HTTP/1.1\nHost: x\nExpect: 100-continue\nContent-Length: 2\n\n")
        let (outcome, consumed) = bytes.withUnsafeBytes { parser.parse($0) }
        #expect(outcome == .needMore)
        #expect(consumed == bytes.count)
        #expect(parser.pendingHead?.expectsContinue == true)
    }
}
