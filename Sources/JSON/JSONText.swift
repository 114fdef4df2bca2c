public import ASCIIKit

/// JSON string escaping (RFC 8259 §7), shared by everything that writes JSON by hand.
public enum JSONText {
    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var buffer = ByteBuffer()
        appendQuoted(text, to: &buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// Appends `text` as a quoted JSON string.
    public static func appendQuoted(_ text: String, to buffer: inout ByteBuffer) {
        text.withUTF8Bytes { appendQuoted(utf8: $0, to: &buffer) }
    }

    /// Appends the UTF-8 text in `utf8` as a quoted JSON string. Bytes that need no escape, which
    /// is nearly all of them, are copied as they are, a run at a time, and looked at eight at a
    /// time (`ByteWord`). Safe: `utf8` is only read, during the call.
    public static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "\""))
        let bytes = UnsafeRawBufferPointer(utf8)
        var runStart = 0
        while let index = ByteWord.firstIndex(in: bytes, from: runStart, suspect: needsEscape, where: needsEscape) {
            buffer.append(UnsafeRawBufferPointer(rebasing: bytes[runStart..<index]))
            appendEscape(of: bytes[index], to: &buffer)
            runStart = index &+ 1
        }
        buffer.append(UnsafeRawBufferPointer(rebasing: bytes[runStart...]))
        buffer.append(UInt8(ascii: "\""))
    }

    /// Whether `byte` must be escaped: a control character, `"`, `\` or DEL.
    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
    }

    /// Whether any of the eight bytes of `word` must be escaped.
    @inline(__always)
    static func needsEscape(_ word: UInt64) -> Bool {
        ByteWord.flags(below: 0x20, in: word) | ByteWord.flags(equalTo: UInt8(ascii: "\""), in: word)
            | ByteWord.flags(equalTo: UInt8(ascii: "\\"), in: word) | ByteWord.flags(equalTo: 0x7F, in: word) != 0
    }

    private static func appendEscape(of byte: UInt8, to buffer: inout ByteBuffer) {
        switch byte {
        case UInt8(ascii: "\""): buffer.append("\\\"" as StaticString)
        case UInt8(ascii: "\\"): buffer.append("\\\\" as StaticString)
        case UInt8(ascii: "\n"): buffer.append("\\n" as StaticString)
        case UInt8(ascii: "\r"): buffer.append("\\r" as StaticString)
        case UInt8(ascii: "\t"): buffer.append("\\t" as StaticString)
        default:
            buffer.append("\\u00" as StaticString)
            buffer.append(ASCII.hexDigit(byte >> 4))
            buffer.append(ASCII.hexDigit(byte & 0xF))
        }
    }
}
