import ASCIIKit

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T10:15:00.123Z`), by arithmetic.
public enum Timestamp {
    /// Calls `body` with milliseconds since the Unix epoch formatted, as bytes on the stack that
    /// the caller copies into its own buffer (a `PUT`'s answer, a log line), so no `String` (too
    /// long to be stored inline) is made for it.
    public static func withRFC3339(milliseconds: Int64, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let (days, secondOfDay) = CivilDate.split(unixSeconds: seconds)
        let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { text in // at most 20 digits of year, then 20 bytes
            var out = Cursor(text: text)
            if (0...9999).contains(year) { out.two(year / 100); out.two(year % 100) } else { ASCII.withDecimalDigits(of: year) { $0.forEach { out.put($0) } } }
            out.put(UInt8(ascii: "-")); out.two(month)
            out.put(UInt8(ascii: "-")); out.two(day)
            out.put(UInt8(ascii: "T")); out.two(secondOfDay / 3600)
            out.put(UInt8(ascii: ":")); out.two(secondOfDay / 60 % 60)
            out.put(UInt8(ascii: ":")); out.two(secondOfDay % 60)
            out.put(UInt8(ascii: "."))
            out.put(UInt8(ascii: "0") + UInt8(millis / 100)); out.two(millis % 100)
            out.put(UInt8(ascii: "Z"))
            // Safe: the bytes handed on are the ones just written, and `body` cannot keep them
            // past this call, which is as long as the allocation lives.
            body(UnsafeBufferPointer(rebasing: text[..<out.count]))
        }
    }

    /// Where the next byte goes. A struct with mutating methods rather than nested functions that
    /// capture the count: a captured variable lives in a box, checked for exclusive access at
    /// run time on every byte.
    private struct Cursor {
        let text: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func put(_ byte: UInt8) { text[count] = byte; count += 1 }

        /// Writes `value` (0…99) as two digits in one store (`ASCII.digitPair`).
        @inline(__always)
        mutating func two(_ value: Int) {
            // Safe: the caller's buffer has room for the two bytes at `count`.
            UnsafeMutableRawPointer(text.baseAddress.unsafelyUnwrapped).storeBytes(of: ASCII.digitPair(value), toByteOffset: count, as: UInt16.self)
            count &+= 2
        }
    }
}
