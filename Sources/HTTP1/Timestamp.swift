import ASCIIKit

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T10:15:00.123Z`), by arithmetic.
public enum Timestamp {
    /// Formats milliseconds since the Unix epoch.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let (days, secondOfDay) = CivilDate.split(unixSeconds: seconds)
        let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
        // Written in place, one allocation (the text is too long to be stored inline): through
        // an array and then a String, each answer with a timestamp paid for two.
        return String(unsafeUninitializedCapacity: 40) { text in // at most 20 digits of year, then 20 bytes
            var count = 0
            func put(_ byte: UInt8) { text[count] = byte; count += 1 }
            func two(_ value: Int) { put(UInt8(ascii: "0") + UInt8(value / 10)); put(UInt8(ascii: "0") + UInt8(value % 10)) }
            if (0...9999).contains(year) { two(year / 100); two(year % 100) } else { ASCII.withDecimalDigits(of: year) { $0.forEach(put) } }
            put(UInt8(ascii: "-")); two(month)
            put(UInt8(ascii: "-")); two(day)
            put(UInt8(ascii: "T")); two(secondOfDay / 3600)
            put(UInt8(ascii: ":")); two(secondOfDay / 60 % 60)
            put(UInt8(ascii: ":")); two(secondOfDay % 60)
            put(UInt8(ascii: "."))
            put(UInt8(ascii: "0") + UInt8(millis / 100)); two(millis % 100)
            put(UInt8(ascii: "Z"))
            return count
        }
    }
}
