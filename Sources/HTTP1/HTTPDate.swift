import ASCIIKit

/// IMF-fixdate (RFC 9110 §5.6.7), `Sun, 06 Nov 1994 08:49:37 GMT`, from Unix seconds with plain
/// arithmetic: no formatter, no locale, no allocation beyond the string.
public enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats whole seconds since 1970-01-01T00:00:00Z.
    public static func format(unixSeconds: Int64) -> String {
        let (days, secondOfDay) = CivilDate.split(unixSeconds: unixSeconds)
        let (year, month, day) = CivilDate.from(daysSinceEpoch: days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let pad = ASCII.padded
        return "\(weekday), \(pad(day, 2)) \(months[month - 1]) \(year) \(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
    }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days_from_civil inverse).
public enum CivilDate {
    /// Whole days since 1970-01-01 (rounded down, also before 1970) and the second within that day.
    public static func split(unixSeconds: Int64) -> (days: Int64, secondOfDay: Int) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        return (days, Int(unixSeconds - days * 86_400))
    }

    /// Year, month (1-12) and day (1-31) of the day `days` after 1970-01-01.
    public static func from(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
