import JSON

/// Reads a number written as in JSON (`3`, `-1`, `3.25`, `1e3`, `1e400`) exactly, clamped to
/// `0...scale.maxRating`, for displaying a value that is not stored.
///
/// The result is kept to thousandths, truncated. That loses nothing the display can show: every
/// rounding threshold of the contract (multiples of 0.25 for the half star, of 0.005 for the fill)
/// is a multiple of 0.001, so `x ≥ t` exactly when `floor(1000x) ≥ 1000t`.
public enum DecimalInput {
    /// Parses `text` (RFC 8259 §6 number grammar) and clamps it to `0...scale.maxRating`.
    public static func parse(_ text: String, on scale: Scale) throws(RatingError) -> ExactValue {
        guard let number = JSONNumber(text) else { throw .invalidDisplayValue(given: text) }
        let limit = scale.maxRating * 1000
        if number.isNegative || number.isZero { return ExactValue(thousandths: 0) }
        // value × 1000 = digits × 10^(shift)
        let shift = number.scale + 3
        var significant = number.digits.drop(while: { $0 == 0 })
        if shift < 0 {
            let dropped = -shift
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
