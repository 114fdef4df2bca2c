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

    @Test("what the writer writes, the parser reads back")
    func roundTrip() throws {
        var json = JSONWriter()
        json.beginObject(); json.key("s"); json.string("\u{0}\u{1F600}\"\\/"); json.endObject()
        #expect(try JSONParser.parse(json.bytes)["s"] == .string("\u{0}\u{1F600}\"\\/"))
    }
}
