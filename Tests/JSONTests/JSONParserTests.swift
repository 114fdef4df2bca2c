import JSON
import Testing

@Suite("JSON parsing: strings")
struct JSONParserStringTests {
    private func parse(_ bytes: [UInt8]) throws(JSONParser.SyntaxError) -> JSONValue { try JSONParser.parse(bytes) }

    /// What a client is told about `bytes` (the 400's detail), or nil when they parse.
    private func failure(_ bytes: [UInt8]) -> String? {
        do { _ = try parse(bytes); return nil } catch { return error.description }
    }

    @Test("a string with no escape, with escapes between runs, and with only escapes")
    func escapes() throws {
        #expect(try parse(Array(#""bench-37""#.utf8)) == .string("bench-37"))
        #expect(try parse(Array(#""a\"b\\c\/d\n\r\t\b\fé""#.utf8)) == .string("a\"b\\c/d\n\r\t\u{8}\u{C}é"))
        #expect(try parse(Array(#""\n\n""#.utf8)) == .string("\n\n"))
        #expect(try parse(Array(#""x\u00e9\ud83d\ude00y""#.utf8)) == .string("xé\u{1F600}y"))
        #expect(try parse(Array(#""""#.utf8)) == .string(""))
    }

    @Test("bytes that are not UTF-8 are refused where the run they belong to ends, escape or not")
    func invalidUTF8() {
        #expect(failure([UInt8(ascii: "\""), UInt8(ascii: "a"), 0xFF, UInt8(ascii: "\"")]) == "invalid UTF-8 in a string at byte 3")
        // A two-byte sequence cut by an escape is not UTF-8 on either side.
        #expect(failure([UInt8(ascii: "\""), 0xC3, UInt8(ascii: "\\"), UInt8(ascii: "n"), 0xA9, UInt8(ascii: "\"")]) == "invalid UTF-8 in a string at byte 2")
        #expect(failure([UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), 0xE2, 0x82, UInt8(ascii: "\"")]) == "invalid UTF-8 in a string at byte 5")
    }

    @Test("a control character, an unknown escape and a missing quote are refused at their byte")
    func malformed() {
        #expect(failure([UInt8(ascii: "\""), UInt8(ascii: "a"), 0x0A, UInt8(ascii: "\"")]) == "control character in a string at byte 2")
        #expect(failure(Array(#""\x""#.utf8)) == "invalid escape at byte 3")
        #expect(failure(Array(#""abc"#.utf8)) == "unterminated string at byte 4")
    }

    @Test("a member name that repeats is refused, escaped or not, at the repeat's first byte")
    func duplicateNames() {
        #expect(failure(Array(#"{"stars":4,"st\u0061rs":5}"#.utf8)) == "duplicate member name \"stars\" at byte 11")
    }

    /// `{"m0":0,"m1":0,…}` with `count` members, then `extra` written after them.
    private func object(members count: Int, then extra: String = "") -> [UInt8] {
        Array(("{" + (0..<count).map { "\"m\($0)\":0" }.joined(separator: ",") + extra + "}").utf8)
    }

    @Test("a repeat is found wherever it falls in a large object: among the first few, past them, and the last member",
          arguments: [(3, "m1"), (8, "m0"), (9, "m8"), (500, "m0"), (500, "m499"), (1_023, "m1022")])
    func duplicatesInLargeObjects(members: Int, repeated: String) throws {
        let bytes = object(members: members, then: ",\"\(repeated)\":1")
        #expect(failure(bytes)?.hasPrefix("duplicate member name \"\(repeated)\" at byte ") == true)
        // The same object without the repeat parses, every member kept in order.
        guard case .object(let kept) = try parse(object(members: members)) else { Issue.record("not an object"); return }
        #expect(kept.map(\.key) == (0..<members).map { "m\($0)" })
    }

    @Test("an object of exactly the member cap parses; one more member is refused where it starts")
    func memberCap() throws {
        guard case .object(let members) = try parse(object(members: JSONParser.maxMembers)) else { Issue.record("not an object"); return }
        #expect(members.count == 1_024)
        let over = object(members: JSONParser.maxMembers + 1)
        let offset = over.firstRange(of: Array("\"m1024\"".utf8))!.lowerBound
        #expect(failure(over) == "an object with more than 1024 members at byte \(offset)")
        // Nested objects each have their own count.
        let nested = Array(("[" + (0..<3).map { _ in String(decoding: object(members: 1_000), as: UTF8.self) }.joined(separator: ",") + "]").utf8)
        #expect(throws: Never.self) { try parse(nested) }
    }
}
