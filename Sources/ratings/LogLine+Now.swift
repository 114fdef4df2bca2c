import HTTP1
import Platform
import RatingsAPI

extension LogLine {
    /// The line for `message`, stamped with the system clock now: the program's own lines have
    /// no clock of their own to pass, unlike the API's, whose clock tests replace.
    static func now(_ message: String, level: Level = .error, format: LogFormat) -> String {
        make(message, level: level, format: format, wallMilliseconds: SystemClock.wallMilliseconds())
    }
}
