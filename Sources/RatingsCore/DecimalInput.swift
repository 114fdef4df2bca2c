import ASCIIKit
import JSON

/// Reads a number written as in JSON (`3`, `-1`, `3.25`, `1e3`, `1e400`) exactly, clamped to
/// `0...scale.maxRating`, for displaying a value that is not stored.
///
/// The result is kept to thousandths, truncated. That loses nothing the display can show: every
/// rounding threshold of the API (multiples of 0.25 for the half star, of 0.005 for the fill)
/// is a multiple of 0.001, so `x ≥ t` exactly when `floor(1000x) ≥ 1000t`.
public enum DecimalInput {
    /// Parses `text` (RFC 8259 §6 number grammar) and clamps it to `0...scale.maxRating`.
    public static func parse(_ text: String, on scale: Scale) throws(RatingError) -> ExactValue {
        let limit = scale.maxRating * 1000
        var text = text
        if let thousandths = text.withUTF8(plainThousandths) { return ExactValue(thousandths: min(thousandths, limit)) }
        guard let number = JSONNumber(text) else { throw .invalidDisplayValue(given: text) }
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

    /// A plain decimal (`3`, `0.5`, `3.25`: no sign, no exponent, at most four whole digits, as
    /// clients send it) in thousandths, truncated, read straight from the bytes; nil for any
    /// other text, which then takes the general path. The same value that path gives: this runs
    /// on every display request, and the general path builds an array of the digits.
    private static func plainThousandths(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var thousandths = 0
        // A fifth digit is enough to hand the text on: read further, a long run of digits would
        // overflow `thousandths` (and trap) before the count below could refuse it.
        while index < bytes.count, index <= 4, ASCII.isDigit(bytes[index]) {
            thousandths = thousandths * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
        }
        // JSON allows no leading zero. Five whole digits or more are past every scale; the
        // general path clamps them.
        guard (1...4).contains(index), index == 1 || bytes[0] != UInt8(ascii: "0") else { return nil }
        thousandths *= 1000
        guard index < bytes.count else { return thousandths }
        guard bytes[index] == UInt8(ascii: "."), index + 1 < bytes.count else { return nil }
        index += 1
        var place = 100 // then 10, 1, and 0 for every digit past thousandths: they are truncated
        while index < bytes.count, ASCII.isDigit(bytes[index]) {
            thousandths += Int(bytes[index] &- UInt8(ascii: "0")) * place
            place /= 10
            index += 1
        }
        return index == bytes.count ? thousandths : nil
    }
}
