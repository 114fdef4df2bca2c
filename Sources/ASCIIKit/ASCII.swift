/// The byte-level text helpers every module shares: ASCII classes, hexadecimal digits, trimming,
/// bounded decimal integers and zero padding. Protocol text (HTTP, JSON, SQL names, flags) is
/// ASCII, so these work on UTF-8 bytes and never on `Character` (grapheme clusters, which
/// protocol text does not have).
public enum ASCII {
    /// `0`…`9`.
    @inlinable @inline(__always)
    public static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// `A`…`Z` or `a`…`z`.
    @inlinable @inline(__always)
    public static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    /// `A`…`Z`.
    @inlinable @inline(__always)
    public static func isUppercase(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }

    /// The byte with `A`…`Z` mapped to `a`…`z`.
    @inlinable @inline(__always)
    public static func lowercased(_ byte: UInt8) -> UInt8 { isUppercase(byte) ? byte | 0x20 : byte }

    /// Space or horizontal tab: HTTP's optional whitespace (RFC 9110 §5.6.3).
    @inlinable @inline(__always)
    public static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The value of a hexadecimal digit (either case), or nil.
    @inlinable @inline(__always)
    public static func hexValue(_ byte: UInt8) -> Int? {
        if isDigit(byte) { return Int(byte &- UInt8(ascii: "0")) }
        let lower = byte | 0x20
        if lower &- UInt8(ascii: "a") < 6 { return Int(lower &- UInt8(ascii: "a")) + 10 }
        return nil
    }

    /// Whether `text` is one or more decimal digits and nothing else.
    @inlinable
    public static func isDecimal(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isDigit)
    }

    /// Whether `bytes` are one or more decimal digits and nothing else.
    @inlinable
    public static func isDecimal(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isDigit)
    }

    /// A number written in decimal digits only (leading zeros allowed, no sign) that lies in
    /// `range`; nil otherwise. Any number of digits is read without overflow: digits beyond
    /// what the upper bound needs make the number too large, not a trap.
    @inlinable
    public static func integer(_ text: some StringProtocol, in range: ClosedRange<Int>) -> Int? {
        integer(text.utf8, in: range)
    }

    /// `integer(_:in:)` of text given as its UTF-8 bytes (a header field's value, in place).
    @inlinable
    public static func integer(_ bytes: some Collection<UInt8>, in range: ClosedRange<Int>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.addingReportingOverflow(Int(byte &- UInt8(ascii: "0")))
            if overflowA || overflowB || next > range.upperBound { return nil }
            value = next
        }
        return range.contains(value) ? value : nil
    }

    /// `value` in decimal, left-padded with zeros to `width` digits (`padded(7, 3)` is `007`).
    @inlinable
    public static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.utf8.count >= width ? text : String(repeating: "0", count: width - text.utf8.count) + text
    }

    /// How many of `bytes` are `byte`: how many pieces a split will give, to size its array once.
    @inlinable
    public static func occurrences(of byte: UInt8, in bytes: some Sequence<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 == byte ? 1 : 0) }
    }

    /// Calls `body` with each run of `bytes` between `separator` bytes, in order, empty runs
    /// included, without building an array of them (paths, queries and id lists on every
    /// request). Cut from the bytes themselves: a `Substring` per piece would have its String
    /// indices checked and aligned, several times the cost of the cut.
    @inlinable
    public static func forEachSlice(of bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8,
                                    _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        for slice in ByteSlices(bytes, separatedBy: separator) { try body(slice) }
    }

    /// Calls `body` with consecutive pieces of `bytes`, which together are all of it in order,
    /// each ending at a newline and at most `limit` bytes long, except a single line longer than
    /// `limit` (a piece of its own) and a last line without its newline. A pipe takes a write of
    /// at most `PIPE_BUF` bytes in one piece, so writing lines in such pieces keeps another
    /// writer's lines on the same pipe from landing inside one of them.
    public static func forEachRunOfWholeLines<Failure: Error>(in bytes: UnsafeRawBufferPointer, atMost limit: Int,
                                                              _ body: (UnsafeRawBufferPointer) throws(Failure) -> Void) throws(Failure) {
        let newline = UInt8(ascii: "\n")
        var start = 0
        while start < bytes.count {
            var end = min(start + limit, bytes.count)
            if end < bytes.count {
                // Back to the last line end inside the limit; without one, on to this line's end.
                if let lastNewline = bytes[start..<end].lastIndex(of: newline) {
                    end = lastNewline + 1
                } else {
                    end = bytes[end...].firstIndex(of: newline).map { $0 + 1 } ?? bytes.count
                }
            }
            try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
    }

    /// `bytes` (UTF-8) as text, copied in place: ASCII needs no UTF-8 check; anything else is
    /// checked, and repaired, as `String(decoding:)` would.
    @inlinable
    public static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { $0.initialize(fromContentsOf: bytes) }
    }

    /// `bytes` as text with `A`…`Z` lowercased, written in place: a short result (a field name)
    /// then lives inline, with no allocation.
    @inlinable
    public static func lowercasedText(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var count = 0
            for byte in bytes {
                buffer[count] = lowercased(byte)
                count += 1
            }
            return count
        }
    }

    /// How many bytes `value` takes in decimal: its digits, and a minus sign when negative.
    @inlinable
    public static func decimalLength(of value: Int) -> Int {
        if value >= 0 && value < 10 { return 1 } // a star count, a histogram's small counts
        var length = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            length += 1
        }
        return length
    }

    /// Writes `value` in decimal at `start`, exactly `decimalLength(of: value)` bytes, two digits at
    /// a time (`digitPair`).
    @inlinable
    public static func writeDecimal(_ value: Int, at start: UnsafeMutableRawPointer, length: Int) {
        var magnitude = value.magnitude
        var position = length
        while magnitude >= 100 {
            position &-= 2
            start.storeBytes(of: digitPair(Int(truncatingIfNeeded: magnitude % 100)), toByteOffset: position, as: UInt16.self)
            magnitude /= 100
        }
        if magnitude >= 10 {
            start.storeBytes(of: digitPair(Int(truncatingIfNeeded: magnitude)), toByteOffset: position &- 2, as: UInt16.self)
        } else {
            start.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude), toByteOffset: position &- 1, as: UInt8.self)
        }
        if value < 0 { start.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self) }
    }

    /// The two digits of `value` (0…99) as they lie in memory, ready to be stored as one `UInt16`:
    /// copied from a literal of the pairs "00" to "99", whose bytes are in the binary, so no lazy
    /// initialization of a table is checked on every use.
    @inlinable @inline(__always)
    public static func digitPair(_ value: Int) -> UInt16 {
        let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
        // Safe: value is 0…99, so its pair lies inside the literal's 200 bytes.
        return UnsafeRawPointer(pairs.utf8Start).loadUnaligned(fromByteOffset: 2 &* value, as: UInt16.self)
    }

    /// Calls `body` with `value` in decimal digits (a minus sign first when negative), written
    /// on the stack.
    @inlinable
    public static func withDecimalDigits<Result>(of value: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let length = decimalLength(of: value)
        return withUnsafeTemporaryAllocation(byteCount: length, alignment: 1) { buffer in
            // Safe: the allocation is `length` bytes, all of which writeDecimal fills.
            writeDecimal(value, at: buffer.baseAddress.unsafelyUnwrapped, length: length)
            return body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// `value` as lowercase hexadecimal, left-padded with zeros to `width` digits (never cut),
    /// between double quotes when `quoted` (a strong entity tag), after `prefix` when given.
    @inlinable
    public static func hex(_ value: UInt64, width: Int = 16, quoted: Bool = false, after prefix: String = "") -> String {
        // Written in place, prefix included: one string at most, never a second to concatenate.
        let digitCount = max(width, (64 - value.leadingZeroBitCount + 3) / 4)
        let quotes = quoted ? 2 : 0
        return prefix.withUTF8Bytes { prefix in
            String(unsafeUninitializedCapacity: prefix.count + digitCount + quotes) { whole in
                // Safe: `whole` holds exactly the prefix, the digits and the quotes, written once each.
                _ = whole.initialize(fromContentsOf: prefix)
                let buffer = UnsafeMutableBufferPointer(rebasing: whole[prefix.count...])
                if quoted {
                    buffer[0] = UInt8(ascii: "\"")
                    buffer[digitCount + 1] = UInt8(ascii: "\"")
                }
                var rest = value
                for position in stride(from: digitCount - 1, through: 0, by: -1) {
                    buffer[position + quotes / 2] = hexDigit(UInt8(truncatingIfNeeded: rest & 0xF))
                    rest >>= 4
                }
                return prefix.count + digitCount + quotes
            }
        }
    }

    /// The lowercase hexadecimal digit of `value` (0…15), for `hex` and JSON's `\u00XX` escapes.
    /// Computed rather than looked up in a global table, whose lazy initialization every use checks.
    @inlinable
    public static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
    }
}

extension StaticString {
    /// Calls `body` with the literal's UTF-8 bytes: straight from its address in the binary when it
    /// has one, as every multi-character literal does. `withUTF8Buffer` goes through a closure and a
    /// check for the one-scalar form on every call, which cost more than copying a short literal.
    @inlinable @inline(__always)
    public func withRawBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard hasPointerRepresentation else { return withUTF8Buffer { body(UnsafeRawBufferPointer($0)) } }
        return body(UnsafeRawBufferPointer(start: utf8Start, count: utf8CodeUnitCount))
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes where they lie, a NUL inside the text included.
    /// Through `withCString`, which borrows the storage rather than retaining it.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let count = utf8.count
        return try withCString { start in
            // Safe: withCString lends the string's UTF-8 (count bytes, then a NUL) for this call;
            // CChar and UInt8 are the same size, and the bytes are only read.
            try start.withMemoryRebound(to: UInt8.self, capacity: count + 1) {
                try body(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// The text with `A`…`Z` lowercased and every other byte kept; copies only when needed.
    @inlinable
    public func lowercasedASCII() -> String {
        guard withUTF8Bytes({ $0.contains(where: ASCII.isUppercase) }) else { return self }
        return ASCII.lowercasedText(utf8)
    }
}

extension StringProtocol {
    /// Drops leading and trailing spaces and tabs (HTTP's OWS, RFC 9110 §5.6.3).
    @inlinable
    public func trimmingSpacesAndTabs() -> String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !ASCII.isSpaceOrTab($0) }) else { return "" }
        var end = bytes.endIndex
        while end > first, ASCII.isSpaceOrTab(bytes[bytes.index(end, offsetBy: -1)]) { end = bytes.index(end, offsetBy: -1) }
        return String(decoding: bytes[first..<end], as: UTF8.self)
    }
}

/// The runs of some bytes between `separator` bytes, in order, empty runs included, each cut
/// when it is asked for: what `ASCII.forEachSlice` walks, for a caller that stops early or walks
/// two sequences side by side (a path's segments beside a route's).
public struct ByteSlices: Sequence, IteratorProtocol {
    // Safe: the caller's bytes, which it keeps alive while it walks them.
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline let separator: UInt8
    /// Where the next run starts; past the end once the last was given.
    @usableFromInline var start = 0

    @inlinable
    public init(_ bytes: UnsafeBufferPointer<UInt8>, separatedBy separator: UInt8) {
        self.bytes = bytes
        self.separator = separator
    }

    @inlinable
    public mutating func next() -> UnsafeBufferPointer<UInt8>? {
        guard start <= bytes.count else { return nil }
        let end = bytes[start...].firstIndex(of: separator) ?? bytes.endIndex
        defer { start = end + 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
