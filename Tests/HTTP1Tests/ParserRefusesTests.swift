@testable import HTTP1
import TestSupport
import Testing

@Suite("The parser refuses what RFC 9112 forbids")
struct ParserRefusesTests {
    static let invalid: [(String, [UInt8], HTTPParseError)] = [
        ("CL and TE together", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 3\nTransfer-Encoding: chunked\n\n"), .contentLengthWithTransferEncoding),
        ("differing Content-Length", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 3\nContent-Length: 4\n\n"), .invalidContentLength),
        ("listed differing Content-Length", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 3, 4\n\n"), .invalidContentLength),
        ("signed Content-Length", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: +3\n\n"), .invalidContentLength),
        ("hex Content-Length", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 0x3\n\n"), .invalidContentLength),
        ("empty Content-Length", crlf("PUT / HTTP/1.1\nHost: x\nContent-Length:\n\n"), .invalidContentLength),
        ("gzip coding", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip\n\n"), .unsupportedTransferCoding("gzip")),
        ("gzip then chunked", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip, chunked\n\n"), .unsupportedTransferCoding("gzip")),
        ("chunked not final", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked, gzip\n\n"), .chunkedNotFinal),
        ("chunked twice", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\nTransfer-Encoding: chunked\n\n"), .chunkedNotFinal),
        ("TE in HTTP/1.0", crlf("PUT / HTTP/1.0\nTransfer-Encoding: chunked\n\n"), .transferEncodingInHTTP10),
        ("obs-fold", crlf("GET / HTTP/1.1\nHost: x\nX-A: one\n two\n\n"), .obsoleteLineFolding),
        ("space before colon", crlf("GET / HTTP/1.1\nHost : x\n\n"), .whitespaceBeforeColon),
        ("tab before colon", crlf("GET / HTTP/1.1\nHost\t: x\n\n"), .whitespaceBeforeColon),
        ("control byte in value", crlf("GET / HTTP/1.1\nHost: x\nX-A: a\u{1}b\n\n"), .invalidFieldValue(name: "x-a")),
        ("NUL in value", crlf("GET / HTTP/1.1\nHost: x\nX-A: a\u{0}b\n\n"), .invalidFieldValue(name: "x-a")),
        ("DEL in value", crlf("GET / HTTP/1.1\nHost: x\nX-A: a\u{7F}b\n\n"), .invalidFieldValue(name: "x-a")),
        ("bare CR", Array("GET / HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n".utf8), .bareCarriageReturn),
        ("bare LF", Array("GET / HTTP/1.1\nHost: x\n\n".utf8), .bareLineFeed),
        ("missing Host", crlf("GET / HTTP/1.1\n\n"), .missingHost),
        ("repeated Host", crlf("GET / HTTP/1.1\nHost: a\nHost: b\n\n"), .repeatedHost),
        ("Host with a path", crlf("GET / HTTP/1.1\nHost: a/b\n\n"), .invalidHost),
        ("HTTP/2.0", crlf("GET / HTTP/2.0\nHost: x\n\n"), .unsupportedVersion("HTTP/2.0")),
        ("lowercase version", crlf("GET / http/1.1\nHost: x\n\n"), .malformedRequestLine),
        ("version with a comma", crlf("GET / HTTP/1,1\nHost: x\n\n"), .malformedRequestLine),
        ("version with a letter", crlf("GET / HTTP/1.x\nHost: x\n\n"), .malformedRequestLine),
        ("HTTPS version", crlf("GET / HTTPS/1.1\nHost: x\n\n"), .malformedRequestLine),
        ("lowercase version", crlf("GET / http/1.1\nHost: x\n\n"), .malformedRequestLine),
        ("version with three digits", crlf("GET / HTTP/1.10\nHost: x\n\n"), .malformedRequestLine),
        ("missing version", crlf("GET /\nHost: x\n\n"), .malformedRequestLine),
        ("two spaces", crlf("GET  / HTTP/1.1\nHost: x\n\n"), .malformedRequestLine),
        ("space in target", crlf("GET /a b HTTP/1.1\nHost: x\n\n"), .malformedRequestLine),
        ("non-token method", crlf("GE(T / HTTP/1.1\nHost: x\n\n"), .invalidMethod),
        ("relative target", crlf("GET a HTTP/1.1\nHost: x\n\n"), .invalidTarget),
        ("absolute form with userinfo", crlf("GET http://user@h/x HTTP/1.1\nHost: x\n\n"), .invalidTarget),
        ("absolute form without a host", crlf("GET http:///x HTTP/1.1\nHost: x\n\n"), .invalidTarget),
        ("absolute form of another scheme", crlf("GET ftp://h/x HTTP/1.1\nHost: x\n\n"), .invalidTarget),
        ("absolute form with an invalid authority", crlf("GET http://a,b/x HTTP/1.1\nHost: x\n\n"), .invalidHost),
        ("non-ASCII target", crlf("GET /caf") + [0xC3, 0xA9] + crlf(" HTTP/1.1\nHost: x\n\n"), .invalidTarget),
        ("empty field name", crlf("GET / HTTP/1.1\nHost: x\n: v\n\n"), .invalidFieldName),
        ("no colon", crlf("GET / HTTP/1.1\nHost: x\nnocolon\n\n"), .invalidFieldName),
        ("bad chunk size", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nzz\n"), .invalidChunk("a chunk must start with its size in hexadecimal")),
        ("chunk without CRLF", crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n2\nabc"), .invalidChunk("chunk data must end with CRLF")),
    ]

    @Test("each violation is refused with its error", arguments: invalid.indices)
    func refuses(index: Int) {
        let (name, bytes, expected) = Self.invalid[index]
        #expect(parseStream([bytes]).failure == expected, "\(name)")
        #expect(parseStream(bytes.map { [$0] }).failure == expected, "\(name), byte by byte")
    }

    @Test("statuses follow the error", arguments: [
        (HTTPParseError.requestLineTooLong, 414), (.headersTooLarge, 431), (.tooManyHeaders, 431),
        (.bodyTooLarge(limit: 1), 413), (.unsupportedTransferCoding("gzip"), 501), (.bareLineFeed, 400),
        (.unsupportedVersion("HTTP/2.0"), 505), (.missingHost, 400),
    ])
    func statusFollowsError(error: HTTPParseError, status: Int) {
        #expect(error.status == status)
        #expect(!error.detail.isEmpty)
    }

    @Test("a Host is refused for exactly its listed bytes and any non-ASCII byte")
    func hostBytes() {
        let refused = (0...255).filter { HostRule.isForbidden(UInt8($0)) }
        #expect(refused == (0...255).filter { $0 >= 128 || HostRule.forbiddenASCII.utf8.contains(UInt8($0)) })
    }

    @Test("every byte a target or a field value may not hold is refused wherever it falls in them")
    func refusedBytesAnywhere() {
        var wrong: [String] = []
        for byte in UInt8.min...UInt8.max {
            // Positions across the eight-byte words the checks read, and in the tail after them.
            for position in 0..<19 {
                var target = Array("/v1/items/abcdefghij".utf8)
                target[1 + position] = byte
                let request = Array("GET ".utf8) + target + crlf(" HTTP/1.1\nHost: x\n\n")
                let targetAllowed = byte > 0x20 && byte < 0x7F
                let expected: HTTPParseError? = targetAllowed ? nil : byte == 0x20 ? .malformedRequestLine : byte == 0x0A || byte == 0x0D ? nil : .invalidTarget
                let failure = parseStream([request]).failure
                // A CR or LF ends the line early; whatever that gives, it is never a request.
                if byte == 0x0A || byte == 0x0D { if failure == nil { wrong.append("target \(byte) at \(position) accepted") } } else if failure != expected {
                    wrong.append("target \(byte) at \(position): \(String(describing: failure))")
                }
                var value = Array("application/json; a=b".utf8)
                value[position] = byte
                let field = crlf("GET / HTTP/1.1\nHost: x\nX-A: ") + value + crlf("\n\n")
                let valueAllowed = byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
                let valueFailure = parseStream([field]).failure
                if byte == 0x0A || byte == 0x0D { continue }
                if valueAllowed ? valueFailure != nil : valueFailure != .invalidFieldValue(name: "x-a") {
                    wrong.append("value \(byte) at \(position): \(String(describing: valueFailure))")
                }
            }
        }
        #expect(wrong.count == 0, "first wrong: \(wrong.first ?? "")")
    }

    @Test("a request line over 8 KiB is 414, even before its end arrives")
    func longRequestLine() {
        let long = Array("GET /".utf8) + Array(repeating: UInt8(ascii: "a"), count: 9_000)
        #expect(parseStream([long]).failure == .requestLineTooLong)
        #expect(parseStream([long + crlf(" HTTP/1.1\nHost: x\n\n")]).failure == .requestLineTooLong)
        let fits = crlf("GET /" + String(repeating: "a", count: 8_000) + " HTTP/1.1\nHost: x\n\n")
        #expect(parseStream([fits]).requests.count == 1)
    }

    @Test("a header section over 16 KiB is 431")
    func largeHeaders() {
        let big = crlf("GET / HTTP/1.1\nHost: x\nX-Big: " + String(repeating: "b", count: 17_000) + "\n\n")
        #expect(parseStream([big]).failure == .headersTooLarge)
        #expect(parseStream([Array(big.prefix(17_000))]).failure == .headersTooLarge)
    }

    @Test("more than 100 fields is 431")
    func tooManyFields() {
        let fields = (0...100).map { "X-\($0): v\n" }.joined()
        #expect(parseStream([crlf("GET / HTTP/1.1\nHost: x\n" + fields + "\n")]).failure == .tooManyHeaders)
        let fits = (0..<99).map { "X-\($0): v\n" }.joined()
        #expect(parseStream([crlf("GET / HTTP/1.1\nHost: x\n" + fits + "\n")]).requests.count == 1)
    }

    @Test("a body over 64 KiB is 413, declared or chunked")
    func largeBodies() {
        #expect(parseStream([crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 65537\n\n")]).failure == .bodyTooLarge(limit: 65_536))
        #expect(parseStream([crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 99999999999999999999999\n\n")]).failure == .bodyTooLarge(limit: 65_536))
        let chunk = String(repeating: "a", count: 40_000)
        let chunked = crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n9c40\n\(chunk)\n9c40\n\(chunk)\n0\n\n")
        #expect(parseStream([chunked]).failure == .bodyTooLarge(limit: 65_536))
        let exact = crlf("PUT / HTTP/1.1\nHost: x\nContent-Length: 65536\n\n") + Array(repeating: UInt8(ascii: "a"), count: 65_536)
        #expect(parseStream([exact]).requests.first?.body.count == 65_536)
        #expect(parseStream([crlf("PUT / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nfffffffffffff\n")]).failure == .bodyTooLarge(limit: 65_536))
    }
}

@Suite("The parser's limits and line endings hold however the bytes arrive")
struct ParserEdgeTests {
    static let limits = {
        var limits = HTTPLimits()
        limits.maxRequestLineBytes = 40
        limits.maxHeaderBytes = 60
        return limits
    }()

    /// The outcome for `bytes` whole, after checking that every cut in two and byte-by-byte
    /// delivery give the same one.
    static func outcome(_ bytes: [UInt8]) -> String {
        func describe(_ result: (requests: [HTTPRequest], failure: HTTPParseError?)) -> String {
            result.failure.map { "\($0)" } ?? "\(result.requests.count) request(s)"
        }
        let whole = describe(parseStream([bytes], limits: limits))
        for split in everySplit(bytes) { #expect(describe(parseStream(split, limits: limits)) == whole, "cut at \(split[0].count)") }
        #expect(describe(parseStream(bytes.map { [$0] }, limits: limits)) == whole, "byte by byte")
        return whole
    }

    @Test("a request line of the limit's length is read, one byte more is 414")
    func requestLineAtTheLimit() {
        let line = { (length: Int) in "GET /" + String(repeating: "a", count: length - 14) + " HTTP/1.1" }
        #expect(line(40).utf8.count == 40)
        #expect(Self.outcome(crlf(line(40) + "\nHost: x\n\n")) == "1 request(s)")
        #expect(Self.outcome(crlf(line(41) + "\nHost: x\n\n")) == "requestLineTooLong")
        // Unfinished: 41 bytes may still be a 40-byte line and its CR; the 42nd settles it.
        #expect(Self.outcome(Array(line(41).utf8)) == "0 request(s)")
        #expect(Self.outcome(Array(line(42).utf8)) == "requestLineTooLong")
    }

    @Test("a header section's limit is the same wherever the input is cut")
    func headerSectionAtTheLimit() {
        // The first field length refused, found by growing it one byte at a time, and the same for
        // every cut: at 45 the fields take 9 + 5 + 45 + 2 = 61 bytes and are read, at 46 they are not.
        let head = { (length: Int) in crlf("GET / HTTP/1.1\nHost: x\nX-A: " + String(repeating: "b", count: length) + "\n\n") }
        let refused = (1...80).first { Self.outcome(head($0)) != "1 request(s)" }
        #expect(refused == 46)
        #expect(Self.outcome(head(46)) == "headersTooLarge")
    }

    @Test("a CR not followed by LF is refused wherever it falls", arguments: [0, 1, 13, 20, 30])
    func bareCarriageReturnAnywhere(offset: Int) {
        var bytes = crlf("GET /abcdefghijkl HTTP/1.1\nHost: x\nX-A: abcdefghij\n\n")
        bytes.insert(UInt8(ascii: "\r"), at: 1 + offset)
        #expect(Self.outcome(bytes) == "bareCarriageReturn")
    }
}
