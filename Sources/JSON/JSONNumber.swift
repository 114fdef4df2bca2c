import ASCIIKit

/// A JSON number split into its parts (RFC 8259 §6): sign, every digit (integer part, then
/// fraction), how many of them are the fraction, and the exponent. Reading values from the parts
/// keeps them exact: `40e-1` is the integer 4, `1e400` is a (large) integer, and nothing passes
/// through a `Double`.
public struct JSONNumber: Sendable, Equatable {
    public let isNegative: Bool
    /// The digits as values 0…9, integer part then fraction, leading zeros included.
    public let digits: [UInt8]
    /// How many of `digits` come after the decimal point.
    public let fractionDigitCount: Int
    /// The exponent after `e`, saturated at ±1,000,000,000 (any more pushes every value past
    /// every limit anyway).
    public let exponent: Int

    /// Splits `text`, or returns nil when it is not exactly one JSON number.
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        guard let parts = text.withUTF8(Self.split) else { return nil }
        (isNegative, digits, fractionDigitCount, exponent) = parts
    }

    /// The parts of the number in `bytes`, read in one pass into one digit array (this runs for
    /// every display request; a rating's plain `4` is read without it).
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (Bool, [UInt8], Int, Int)? {
        var index = 0
        func digitRun() -> Range<Int> {
            let start = index
            while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
            return start..<index
        }
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integer = digitRun()
        guard !integer.isEmpty, integer.count == 1 || bytes[integer.lowerBound] != UInt8(ascii: "0") else { return nil }
        var fraction = index..<index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digitRun()
            guard !fraction.isEmpty else { return nil }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentDigits = digitRun()
            guard !exponentDigits.isEmpty else { return nil }
            var magnitude = 0
            for position in exponentDigits { magnitude = min(magnitude * 10 + Int(bytes[position] - UInt8(ascii: "0")), 1_000_000_000) }
            exponent = negativeExponent ? -magnitude : magnitude
        }
        guard index == bytes.count else { return nil }
        var digits: [UInt8] = []
        digits.reserveCapacity(integer.count + fraction.count)
        for position in integer { digits.append(bytes[position] - UInt8(ascii: "0")) }
        for position in fraction { digits.append(bytes[position] - UInt8(ascii: "0")) }
        return (negative, digits, fraction.count, exponent)
    }

    /// Whether every digit is zero (`0`, `-0.0`, `0e5`).
    public var isZero: Bool { digits.allSatisfy { $0 == 0 } }

    /// The power of ten the digits are scaled by: value = digits × 10^scale.
    public var scale: Int { exponent - fractionDigitCount }

    /// What kind of whole number this is, if any.
    public enum Whole: Sendable, Equatable {
        /// A whole number that fits in `Int`.
        case value(Int)
        /// A whole number beyond `Int` (`1e100`, `99999999999999999999`).
        case tooLarge
    }

    /// The value as a whole number, however it is written (`4`, `4.0`, `4e0`, `40e-1`, as JSON
    /// Schema's `integer` reads numbers); nil when it has a fractional part (`3.5`, `4.5e0`, `1e-400`).
    public var whole: Whole? {
        if isZero { return .value(0) }
        var significant = digits.drop { $0 == 0 }
        if scale < 0 {
            let dropped = -scale
            // The digits beyond the point must all be zero; a non-zero one past them all is a fraction.
            guard dropped < significant.count, significant.suffix(dropped).allSatisfy({ $0 == 0 }) else { return nil }
            significant = significant.dropLast(dropped)
        } else if significant.count + scale > 19 {
            return .tooLarge
        }
        var value = 0
        for digit in significant {
            let (shifted, a) = value.multipliedReportingOverflow(by: 10)
            let (next, b) = shifted.addingReportingOverflow(Int(digit))
            if a || b { return .tooLarge }
            value = next
        }
        for _ in 0..<max(scale, 0) {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return .tooLarge }
            value = shifted
        }
        return .value(isNegative ? -value : value)
    }
}
