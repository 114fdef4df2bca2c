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

    /// The line for `message`, without its newline. Text is the message alone (after the request
    /// id, when there is one); JSON is one object with `time`, `level`, `requestId` and `message`.
    public static func make(_ message: String, level: Level = .error, requestID: String? = nil,
                            format: LogFormat, wallMilliseconds: Int64) -> String {
        switch format {
        case .text:
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
}
