import HTTP1
import JSON

/// How a line the service logs about itself reads in each `LogFormat` (a failure on standard error,
/// a start-up note, "listening on"): the one place its fields are named, for the API's failures
/// and the program's own lines alike. Access-log lines have their own form (`AccessLogMiddleware`).
public enum LogLine {
    /// How much a line matters to an operator.
    public enum Level: String, Sendable {
        case info, warning, error
    }

    /// The line for `message`, without its newline: always one line, whatever the message holds
    /// (a library's message may span several). Text is the message alone (after the request id,
    /// when there is one), its control characters escaped (`\n`, `\r`, `\t`, `\u{1B}`); JSON is
    /// one object with `time`, `level`, `requestId` and `message`.
    public static func make(_ message: String, level: Level = .error, requestID: String? = nil,
                            format: LogFormat, wallMilliseconds: Int64) -> String {
        switch format {
        case .text:
            let message = escapingControlCharacters(message)
            return requestID.map { "request \($0): \(message)" } ?? message
        case .json:
            var json = JSONWriter(capacity: 128)
            json.beginObject()
            json.key("time"); Timestamp.withRFC3339(milliseconds: wallMilliseconds) { json.string(utf8: $0) }
            json.key("level"); json.string(level.rawValue)
            json.key("requestId"); if let requestID { json.string(requestID) } else { json.null() }
            json.key("message"); json.string(message)
            json.endObject()
            return String(decoding: json.bytes, as: UTF8.self)
        }
    }

    /// `text` with every control character written as an escape, so that it fits on one line.
    static func escapingControlCharacters(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
