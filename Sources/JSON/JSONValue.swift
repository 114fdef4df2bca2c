import ASCIIKit

/// A parsed JSON value. Numbers keep their text, so `4` and `4.0` stay distinguishable and no
/// value is ever rounded through a double.
public enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The member `key` of an object (nil for other kinds or a missing key).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)): return a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    /// The value as a whole number, however it is written (`4`, `4.0`, `4e0`, `40e-1`), as JSON
    /// Schema's `integer` reads numbers; nil for anything else, including `3.5` and `4.5e0`.
    public var integer: JSONNumber.Whole? {
        guard case .number(let text) = self else { return nil }
        // Nearly every number a client sends is plain digits (`"stars": 4`): read those in place,
        // without splitting them into a digit array. A leading zero (`07`, not JSON) or a sign,
        // point or exponent goes the whole way.
        if text.utf8.first != UInt8(ascii: "0") || text.utf8.count == 1, let value = ASCII.integer(text, in: 0...Int.max) {
            return .value(value)
        }
        return JSONNumber(text)?.whole
    }

    /// A short description of the value's kind, for error details.
    public var kindDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number(let text): return "the number \(text)"
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        }
    }
}
