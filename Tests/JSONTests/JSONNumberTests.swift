import ASCIIKit
import JSON
import Testing

@Suite("JSON numbers read exactly, and whole numbers in every written form")
struct JSONNumberTests {
    @Test("whole numbers however they are written; fractions are not whole", arguments: [
        ("4", JSONNumber.Whole.value(4) as JSONNumber.Whole?), ("4.0", .value(4)), ("4e0", .value(4)), ("40e-1", .value(4)),
        ("4E+0", .value(4)), ("0.4e1", .value(4)), ("400e-2", .value(4)), ("-3", .value(-3)), ("-0.0", .value(0)), ("0e99", .value(0)), ("0", .value(0)), ("10", .value(10)),
        ("3.5", nil), ("4.5e0", nil), ("1e-400", nil), ("41e-1", nil), ("0.000001", nil),
        ("1e100", .tooLarge), ("99999999999999999999", .tooLarge), ("9223372036854775807", .value(Int.max)),
        ("9223372036854775808", .tooLarge), ("1e1000000000000", .tooLarge),
    ])
    func wholeValues(text: String, whole: JSONNumber.Whole?) {
        #expect(JSONNumber(text)?.whole == whole)
        #expect(JSONValue.number(text).integer == whole)
    }

    @Test("text that is not one JSON number is refused", arguments: ["", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x5", "nan", "inf", "3,5", "1 ", "1.5.5", "--1"])
    func refusesNonNumbers(text: String) {
        #expect(JSONNumber(text) == nil)
        #expect(JSONValue.number(text).integer == nil)
    }

    @Test("strings, booleans and null are never integers")
    func otherKinds() throws {
        for text in [#""4""#, "true", "null", "[4]", #"{"a":4}"#] {
            #expect(try JSONParser.parse(Array(text.utf8)).integer == nil)
        }
    }
}

@Suite("JSON writing: escaping and compact structure")
struct JSONWritingTests {
    @Test("strings are escaped per RFC 8259 §7 and everything else is copied")
    func escaping() {
        #expect(JSONText.quoted("a\"b\\c\n\r\t\u{1}\u{7F}é") == #""a\"b\\c\n\r\t\u0001\u007fé""#)
    }

    @Test("a string given as UTF-8 bytes is written as the same text given as a String")
    func bytesAndStringsAlike() {
        let text = "a\"b\\c\n\u{1}\u{7F}é 2026-11-30T10:15:00.123Z"
        var fromBytes = JSONWriter()
        var fromString = JSONWriter()
        Array(text.utf8).withUnsafeBufferPointer { fromBytes.beginArray(); fromBytes.string(utf8: $0); fromBytes.string(utf8: $0); fromBytes.endArray() }
        fromString.beginArray(); fromString.string(text); fromString.string(text); fromString.endArray()
        #expect(fromBytes.bytes == fromString.bytes)
        #expect(String(decoding: fromBytes.bytes, as: UTF8.self).hasPrefix(#"["a\"b\\c\n\u0001\u007fé"#))
    }

    @Test("the writer separates members and elements with commas, nothing else")
    func structure() {
        var json = JSONWriter()
        json.beginObject()
        json.key("a"); json.integer(1)
        json.key("b"); json.beginArray(); json.string("x"); json.null(); json.bool(true); json.number("3.5"); json.endArray()
        json.key("c"); json.beginObject(); json.endObject()
        json.endObject()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":1,"b":["x",null,true,3.5],"c":{}}"#)
    }

    @Test("every byte is escaped the same wherever it falls in the eight-byte words the escaper reads")
    func escapingEveryByteAtEveryPosition() {
        // The plain rule, a byte at a time, against which the word-at-a-time escaper is checked.
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out += Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): out += Array(#"\\"#.utf8)
                case UInt8(ascii: "\n"): out += Array(#"\n"#.utf8)
                case UInt8(ascii: "\r"): out += Array(#"\r"#.utf8)
                case UInt8(ascii: "\t"): out += Array(#"\t"#.utf8)
                case 0..<0x20, 0x7F: out += Array(#"\u00"#.utf8) + Array(((byte < 16 ? "0" : "") + String(byte, radix: 16)).utf8)
                default: out.append(byte)
                }
            }
            return out + [UInt8(ascii: "\"")]
        }
        var mismatches = 0
        for length in [1, 7, 8, 9, 16, 17, 23] {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    // Filler bytes on either side of the tested one, the high ones included.
                    var bytes = (0..<length).map { UInt8(ascii: "a") &+ UInt8($0 % 26) | ($0 % 5 == 4 ? 0x80 : 0) }
                    bytes[position] = byte
                    var buffer = ByteBuffer()
                    bytes.withUnsafeBufferPointer { JSONText.appendQuoted(utf8: $0, to: &buffer) }
                    if buffer.bytes != expected(bytes) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        var empty = ByteBuffer()
        JSONText.appendQuoted(utf8: UnsafeBufferPointer(start: nil, count: 0), to: &empty)
        #expect(empty.bytes == Array(#""""#.utf8))
    }

    @Test("members, rendered values and nested containers are separated like the writer's own")
    func structureWithRenderedParts() {
        var inner = JSONWriter()
        inner.beginObject(); inner.key("x"); inner.integer(1); inner.endObject()
        var json = JSONWriter()
        json.beginArray()
        json.beginObject(); json.members([]); json.key("a"); json.value(inner.bytes); json.members(Array(#""m":2,"n":[]"#.utf8)); json.key("b"); json.value("\"star\"" as StaticString); json.endObject()
        json.beginArray(); json.beginArray(); json.endArray(); json.value(inner.bytes); json.endArray()
        json.string(""); json.integer(-4)
        json.endArray()
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"[{"a":{"x":1},"m":2,"n":[],"b":"star"},[[],{"x":1}],"",-4]"#)
        #expect(String(decoding: inner.innerBytes, as: UTF8.self) == #""x":1"#)
    }

    @Test("what the writer writes, the parser reads back")
    func roundTrip() throws {
        var json = JSONWriter()
        json.beginObject(); json.key("s"); json.string("\u{0}\u{1F600}\"\\/"); json.endObject()
        #expect(try JSONParser.parse(json.bytes)["s"] == .string("\u{0}\u{1F600}\"\\/"))
    }
}
