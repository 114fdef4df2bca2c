import ASCIIKit

/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-30T10:15:00.123Z`), by arithmetic.
public enum Timestamp {
    /// Formats milliseconds since the Unix epoch.
    public static func rfc3339(milliseconds: Int64) -> String {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millis = Int(milliseconds - seconds * 1000)
        let (days, secondOfDay) = CivilDate.split(unixSeconds: seconds)
        let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
        let pad = ASCII.padded
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }
}
