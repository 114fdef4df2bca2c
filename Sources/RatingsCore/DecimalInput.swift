/// Reads a number written as in JSON (`3`, `-1`, `3.25`, `1e3`, `1e400`) exactly, clamped to
/// `0...scale.maxRating`, for displaying a value that is not stored.
///
/// The result is kept to thousandths, truncated. That loses nothing the display can show: every
/// rounding threshold of the contract (multiples of 0.25 for the half star, of 0.005 for the fill)
/// is a multiple of 0.001, so `x ≥ t` exactly when `floor(1000x) ≥ 1000t`.
public enum DecimalInput {
    /// Parses `text` (RFC 8259 §6 number grammar) and clamps it to `0...scale.maxRating`.
    public static func parse(_ text: String, on scale: Scale) throws(RatingError) -> ExactValue {
        guard let number = JSONNumberLexeme(text) else { throw .invalidDisplayValue(given: text) }
        let limit = scale.maxRating * 1000
        if number.isNegative || number.digits.allSatisfy({ $0 == 0 }) { return ExactValue(thousandths: 0) }
        // value × 1000 = digits × 10^(shift)
        let shift = number.exponent.addingSaturating(3 - number.fractionDigitCount)
        var significant = number.digits.drop(while: { $0 == 0 })
        if shift < 0 {
            let dropped = shift.magnitudeSaturating
            if dropped >= significant.count { return ExactValue(thousandths: 0) }
            significant = significant.dropLast(dropped)
        }
        let padding = max(shift, 0)
        // Anything with more than 6 digits in thousandths is at least 1000.0, beyond any scale.
        if significant.count + min(padding, 7) > 6 { return ExactValue(thousandths: limit) }
        var thousandths = significant.reduce(0) { $0 * 10 + Int($1) }
        for _ in 0..<padding { thousandths *= 10 }
        return ExactValue(thousandths: min(thousandths, limit))
    }
}

/// The parts of a JSON number: sign, all digits (integer then fraction), fraction length, exponent.
struct JSONNumberLexeme {
    var isNegative = false
    var digits: [UInt8] = []
    var fractionDigitCount = 0
    var exponent = 0

    /// Splits `text`, or returns nil when it is not exactly one JSON number.
    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { isNegative = true; bytes = bytes.dropFirst() }
        let integer = bytes.prefix(while: JSONNumberLexeme.isDigit)
        guard !integer.isEmpty, integer.count == 1 || integer.first != UInt8(ascii: "0") else { return nil }
        digits = integer.map { $0 - UInt8(ascii: "0") }
        bytes = bytes.dropFirst(integer.count)
        if bytes.first == UInt8(ascii: ".") {
            let fraction = bytes.dropFirst().prefix(while: JSONNumberLexeme.isDigit)
            guard !fraction.isEmpty else { return nil }
            digits += fraction.map { $0 - UInt8(ascii: "0") }
            fractionDigitCount = fraction.count
            bytes = bytes.dropFirst(1 + fraction.count)
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var negativeExponent = false
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
                negativeExponent = bytes.first == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: JSONNumberLexeme.isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            // Saturate: an exponent beyond a billion already pushes any value past every limit.
            var magnitude = 0
            for digit in exponentDigits { magnitude = min(magnitude * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000_000) }
            exponent = negativeExponent ? -magnitude : magnitude
            bytes = bytes.dropFirst(exponentDigits.count)
        }
        guard bytes.isEmpty else { return nil }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

extension Int {
    fileprivate func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    fileprivate var magnitudeSaturating: Int { self == .min ? .max : Swift.abs(self) }
}
