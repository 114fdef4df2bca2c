import ASCIIKit
@testable import HTTP1
import Testing

@Suite("Serializer, dates, ETags and targets")
struct SupportTests {
    @Test("responses carry Date, Content-Length and Connection; HEAD drops only the body")
    func serializesResponse() {
        var response = HTTPResponse(status: 200, body: Array("{}".utf8))
        response.headers.add("Content-Type", "application/json")
        var buffer = ByteBuffer()
        ResponseSerializer.write(response, date: "Mon, 30 Nov 2026 10:15:00 GMT", keepAlive: true, includeBody: true, into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\ndate: Mon, 30 Nov 2026 10:15:00 GMT\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}")
        buffer.removeAll(keepingCapacityUpTo: 1024)
        ResponseSerializer.write(response, date: "D", keepAlive: false, includeBody: false, into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\ndate: D\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n")
        buffer.removeAll(keepingCapacityUpTo: 1024)
        ResponseSerializer.write(HTTPResponse(status: 304), date: "D", keepAlive: true, includeBody: true, into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "HTTP/1.1 304 Not Modified\r\ndate: D\r\nconnection: keep-alive\r\n\r\n")
    }

    @Test("the last field is written after the others, which a shared (cached) response keeps unchanged; a 304 keeps it")
    func serializesLastField() {
        let cached = HTTPResponse(status: 200, headers: HTTPHeaders([("etag", "\"1\"")]), body: Array("{}".utf8))
        var answer = cached
        answer.lastField = HTTPField(name: "x-request-id", value: "r-7")
        var buffer = ByteBuffer()
        ResponseSerializer.write(answer, date: "D", keepAlive: true, includeBody: true, into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\ndate: D\r\netag: \"1\"\r\nx-request-id: r-7\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}")
        #expect(cached.lastField == nil && !cached.headers.contains("x-request-id"))
        buffer.removeAll(keepingCapacityUpTo: 1024)
        ResponseSerializer.write(answer.notModified, date: "D", keepAlive: true, includeBody: true, into: &buffer)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "HTTP/1.1 304 Not Modified\r\ndate: D\r\netag: \"1\"\r\nx-request-id: r-7\r\nconnection: keep-alive\r\n\r\n")
    }

    @Test("tchar is exactly RFC 9110's: letters, digits and !#$%&'*+-.^_`|~, for every byte")
    func tokenCharacters() {
        let tchar = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
        let mismatches = (0...255).map(UInt8.init).filter { ByteClass.isToken($0) != tchar.contains($0) }
        #expect(mismatches.isEmpty)
    }

    @Test("header lookups match whole lowercase names, same-length names apart; set replaces every copy")
    func looksUpHeaders() {
        var headers = HTTPHeaders([("Etag", "\"a\""), ("vary", "Accept-Language"), ("ETAG", "\"b\""), ("Connection", "Keep-Alive, Close")])
        #expect(headers["etag"] == "\"a\"" && headers.values("etag") == ["\"a\"", "\"b\""] && headers.values("etag").count == 2)
        #expect(headers["vary"] == "Accept-Language" && headers["date"] == nil && headers["etags"] == nil && headers["eta"] == nil)
        #expect(headers.contains(token: "close", in: "connection") && !headers.contains(token: "close", in: "vary"))
        #expect(headers.contains("vary") && !headers.contains("date") && headers.fields.map(\.value) == ["\"a\"", "Accept-Language", "\"b\"", "Keep-Alive, Close"])
        headers.set("etag", "\"c\"")
        #expect(headers.values("etag") == ["\"c\""] && headers.fields.map(\.name) == ["vary", "connection", "etag"])
    }

    @Test("header lists are values: a copy that changes leaves the original as it was, however they grow")
    func headersAreValues() {
        var original = HTTPHeaders(capacity: 1)
        original.add("content-type", "application/json")
        var copy = original
        copy.add("X-Request-ID", "r-1")
        copy.set("content-type", "text/plain")
        #expect(original.fields == [HTTPField(name: "content-type", value: "application/json")])
        #expect(copy.fields == [HTTPField(name: "x-request-id", value: "r-1"), HTTPField(name: "content-type", value: "text/plain")])
        // Many fields, past the room asked for, and values long and empty.
        var grown = HTTPHeaders()
        let long = String(repeating: "v", count: 5_000)
        for index in 0..<40 { grown.add("vary", index == 7 ? long : index == 8 ? "" : "\(index)") }
        #expect(grown.values("vary").count == 40 && grown.values("vary")[7] == long && grown.values("vary")[8] == "" && grown.values("vary")[39] == "39")
        #expect(HTTPHeaders() == HTTPHeaders(capacity: 4) && original != copy && copy == HTTPHeaders([("X-Request-ID", "r-1"), ("Content-Type", "text/plain")]))
    }

    @Test("IMF-fixdate from Unix seconds", arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"), (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (1_796_033_700, "Mon, 30 Nov 2026 10:15:00 GMT"), (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
    ])
    func formatsDates(seconds: Int64, text: String) {
        #expect(HTTPDate.format(unixSeconds: seconds) == text)
    }

    @Test("RFC 3339 timestamps keep their milliseconds, before 1970 and past year 9999 too", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"), (1_796_033_700_123, "2026-11-30T10:15:00.123Z"),
        (951_782_400_007, "2000-02-29T00:00:00.007Z"), (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "10000-01-01T00:00:00.000Z"),
    ])
    func formatsTimestamps(milliseconds: Int64, text: String) {
        var formatted = ""
        Timestamp.withRFC3339(milliseconds: milliseconds) { formatted = String(decoding: $0, as: UTF8.self) }
        #expect(formatted == text)
    }

    @Test("RFC 3339 timestamps write every two-digit field value as its own digits")
    func formatsEveryFieldValue() {
        // Steps of a seventh of a day, an hour, a minute, a second and two milliseconds (16,003,859
        // ms, odd in its last three digits), so that over 40,000 timestamps, twenty years from 2000,
        // every month, day, hour, minute, second and millisecond value turns up.
        var mismatches: [String] = []
        var milliseconds: Int64 = 946_684_800_000 // 2000-01-01
        for _ in 0..<40_000 {
            milliseconds += 86_400_000 / 7 + 3_600_000 + 60_000 + 1_000 + 2
            let seconds = milliseconds / 1000
            let (days, secondOfDay) = CivilDate.split(unixSeconds: seconds)
            let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
            func digits(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: width - String(value).count) + String(value) }
            let expected = "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))T\(digits(secondOfDay / 3600, 2)):"
                + "\(digits(secondOfDay / 60 % 60, 2)):\(digits(secondOfDay % 60, 2)).\(digits(Int(milliseconds % 1000), 3))Z"
            var formatted = ""
            Timestamp.withRFC3339(milliseconds: milliseconds) { formatted = String(decoding: $0, as: UTF8.self) }
            if formatted != expected { mismatches.append(formatted) }
        }
        #expect(mismatches.count == 0, "first wrong: \(mismatches.first ?? "")")
    }

    @Test("If-None-Match uses weak comparison and lists", arguments: [
        ("\"a\"", "\"a\"", true), ("W/\"a\"", "\"a\"", true), ("\"b\", \"a\"", "\"a\"", true), ("*", "\"a\"", true),
        ("\"b\"", "\"a\"", false), ("a", "\"a\"", false),
    ])
    func matchesETags(header: String, etag: String, matches: Bool) {
        #expect(EntityTag.matches(ifNoneMatch: header, etag: etag) == matches)
    }

    @Test("targets split into decoded segments and raw query items")
    func splitsTargets() {
        let target = RequestTarget("/v1/items/a%3Ab/ratings/%40me?ids=a,b&x")
        #expect(target.pathSegmentCount == 5 && target.pathDecodes)
        #expect((0...5).map(target.pathSegment(at:)) == ["v1", "items", "a:b", "ratings", "@me", nil])
        #expect(target.rawQueryItems.map(\.name) == ["ids", "x"])
        #expect(target.rawQueryItems.first?.value == "a,b")
        #expect(!RequestTarget("/a%zz").pathDecodes && !RequestTarget("/a%ff").pathDecodes)
        #expect(RequestTarget("/a%zz").pathSegment(at: 0) == nil)
        // An empty segment is a segment; a target without a leading slash has none.
        #expect(RequestTarget("/").pathSegmentCount == 1 && RequestTarget("/").pathSegment(at: 0) == "")
        #expect(RequestTarget("/a//b/").pathSegmentCount == 4 && RequestTarget("/a//b/").pathSegment(at: 2) == "b")
        #expect(RequestTarget("*").pathSegmentCount == 0 && RequestTarget("*").pathSegment(at: 0) == nil)
        // Literals compare as they decode; nil entries take any segment.
        let template: [[UInt8]?] = [Array("v1".utf8), Array("items".utf8), nil]
        #expect(RequestTarget("/v1/items/a").pathMatches(template) && RequestTarget("/v1/%69tems/%40").pathMatches(template))
        #expect(!RequestTarget("/v1/items").pathMatches(template) && !RequestTarget("/v1/items/a/").pathMatches(template))
        #expect(!RequestTarget("/v1/item/a").pathMatches(template) && !RequestTarget("/v1/%69tem/a").pathMatches(template))
        #expect(!RequestTarget("*").pathMatches(template) && RequestTarget("*").pathMatches([]))
        #expect(PercentDecoding.decode("a+b") == "a+b")
        // Query parameters: every value of a name in order, names compared as sent (not decoded,
        // not by prefix), empty pairs skipped, a value up to the pair's end (`=` included).
        let query = RequestTarget("/p?ids=a&&id=x&ids=b%2Cc&flag&%69ds=d&ids=&eq=a=b")
        #expect(query.rawQueryValues("ids") == ["a", "b%2Cc", ""] && query.rawQueryValue("ids") == ("a", 3))
        #expect(query.rawQueryValue("id") == ("x", 1) && query.rawQueryValue("flag") == ("", 1) && query.rawQueryValue("eq") == ("a=b", 1))
        #expect(query.rawQueryValue("i") == (nil, 0) && query.rawQueryValue("") == (nil, 0) && query.rawPath == "/p")
        #expect(RequestTarget("/p").rawQueryValue("ids") == (nil, 0) && RequestTarget("/p?").rawQueryValues("ids") == [])
        // A value is decoded only where it has escapes, and refused where one is malformed or
        // the bytes are not UTF-8.
        #expect(PercentDecoding.decode("") == "" && PercentDecoding.decode("3.5") == "3.5")
        #expect(PercentDecoding.decode("a%2Cb") == "a,b" && PercentDecoding.decode("é%C3%A9") == "éé")
        #expect(PercentDecoding.decode("%zz") == nil && PercentDecoding.decode("a%2") == nil && PercentDecoding.decode("%ff") == nil)
    }
}
