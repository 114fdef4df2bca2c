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
    /// is nearly all of them, are copied as they are, a run at a time. Safe: `utf8` is only read,
    /// during the call.
    public static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        buffer.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F else { continue }
            buffer.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart..<index])))
            runStart = index + 1
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
        buffer.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8[runStart...])))
        buffer.append(UInt8(ascii: "\""))
    }
}
