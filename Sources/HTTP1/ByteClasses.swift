import ASCIIKit
import Glibc

/// Byte classes of RFC 9110 §5.6.2 and RFC 9112, as fast lookups.
enum ByteClass {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// tchar: the characters of a token (method, field name). Two 64-bit masks over ASCII (bit n
    /// of the first is byte n, of the second byte 64 + n) rather than a global table, whose lazy
    /// initialization every byte of every name checked.
    @inline(__always) static func isToken(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000 // ! # $ % & ' * + - . 0-9
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE // A-Z ^ _ ` a-z | ~
        return byte < 64 ? low >> byte & 1 != 0 : byte < 128 && high >> (byte - 64) & 1 != 0
    }

    /// field-vchar / obs-text / SP / HTAB: what a field value may hold.
    @inline(__always) static func isFieldValue(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    /// Visible ASCII, as a request target is written.
    @inline(__always) static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    /// The first `byte` in `bytes[start..<end]`, by memchr (a head's line ends).
    static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress else { return nil }
        // Safe: start < end <= bytes.count, so the search stays inside the buffer.
        return memchr(base + start, Int32(byte), end - start).map { base.distance(to: UnsafeRawPointer($0)) }
    }

    /// Whether every byte of `bytes` is visible ASCII (a request target), eight at a time.
    @inline(__always) static func allVisibleASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        ByteWord.allSatisfy(bytes, suspect: { ByteWord.flags(below: 0x21, in: $0) | ByteWord.flags(above: 0x7E, in: $0) != 0 }, isVisibleASCII)
    }

    /// Whether every byte of `bytes` may be in a field value, eight at a time: a word with a tab
    /// is looked at byte by byte.
    @inline(__always) static func allFieldValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        ByteWord.allSatisfy(bytes, suspect: { ByteWord.flags(below: 0x20, in: $0) | ByteWord.flags(equalTo: 0x7F, in: $0) != 0 }, isFieldValue)
    }
}
