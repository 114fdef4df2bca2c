import ASCIIKit

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T10:15:00.123Z`), by arithmetic.
public enum Timestamp {
    /// Formats milliseconds since the Unix epoch.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let (days, secondOfDay) = CivilDate.split(unixSeconds: seconds)
        let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func two(_ value: Int) { text.append(UInt8(ascii: "0") + UInt8(value / 10)); text.append(UInt8(ascii: "0") + UInt8(value % 10)) }
        if (0...9999).contains(year) { two(year / 100); two(year % 100) } else { ASCII.appendDecimal(year, to: &text) }
        text.append(UInt8(ascii: "-")); two(month)
        text.append(UInt8(ascii: "-")); two(day)
        text.append(UInt8(ascii: "T")); two(secondOfDay / 3600)
        text.append(UInt8(ascii: ":")); two(secondOfDay / 60 % 60)
        text.append(UInt8(ascii: ":")); two(secondOfDay % 60)
        text.append(UInt8(ascii: "."))
        text.append(UInt8(ascii: "0") + UInt8(millis / 100)); two(millis % 100)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }
}
