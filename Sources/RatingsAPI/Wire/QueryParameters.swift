import ASCIIKit
import HTTP1

/// Reading the query parameters endpoints share the rules of: each given at most once, values
/// percent-decoded, integers in decimal digits only, and a 400 that names the parameter and says
/// what to send instead.
extension RequestTarget {
    /// The decoded value of `name`, or nil when it is absent; 400 when it is given twice or its
    /// percent-escapes are malformed.
    func single(_ name: String, rule: @autoclosure () -> String) throws -> String? {
        let given = rawQueryValue(name)
        guard given.count <= 1 else { throw APIError.invalidQuery("Give \(name) at most once; \(rule()).") }
        guard let raw = given.first else { return nil }
        guard let decoded = PercentDecoding.decode(raw) else {
            throw APIError.invalidQuery("\(name) has a malformed percent-escape; \(rule()).")
        }
        return decoded
    }

    /// The integer `name`, written in decimal digits and within `range`; `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        // Written only when needed: this runs on every display request.
        func rule() -> String { "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound) written in decimal digits" }
        guard let text = try single(name, rule: rule()) else { return fallback }
        guard let value = ASCII.integer(text, in: range) else { throw APIError.invalidQuery("\(rule()); got \(ErrorResponse.quoted(text)).") }
        return value
    }
}
