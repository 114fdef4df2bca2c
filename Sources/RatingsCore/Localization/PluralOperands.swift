import ASCIIKit

/// The operands CLDR plural rules test, read from a decimal as written, so `1.50` keeps its two
/// visible fraction digits (TR35 Part 3 §5.1.1, "Operands").
public struct PluralOperands: Sendable, Equatable {
    /// `i`: the integer digits of the absolute value.
    public let integerDigits: Int
    /// The visible fraction digits, trailing zeros kept (`v` counts them).
    let fraction: [UInt8]
    /// `e` (and its synonym `c`): the compact-decimal exponent, 0 for plain numbers.
    public let exponent: Int

    /// Most digits on either side of the point; beyond this an `Int` could overflow.
    private static let maxDigits = 18

    /// The operands of a non-negative integer.
    public init(_ integer: Int) {
        integerDigits = integer.magnitude > UInt(Int.max) ? Int.max : Int(integer.magnitude)
        fraction = []
        exponent = 0
    }

    /// Reads `3.5`, `1.00`, `1c6` or `1.0000001c6` (the forms of CLDR's samples); nil for anything
    /// else or for more than 18 digits on either side of the point.
    public init?(_ text: String) {
        var mantissa = Substring(text), exponent = 0
        if let mark = text.firstIndex(where: { $0 == "c" || $0 == "e" }) {
            guard let value = Int(text[text.index(after: mark)...]), (0...Self.maxDigits).contains(value) else { return nil }
            mantissa = text[..<mark]
            exponent = value
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty,
              parts.allSatisfy({ ASCII.isDecimal($0) })
        else { return nil }
        var whole = Array(parts[0].utf8.map { $0 - UInt8(ascii: "0") })
        var fraction = parts.count == 2 ? Array(parts[1].utf8.map { $0 - UInt8(ascii: "0") }) : []
        // A compact exponent moves the point right, padding with zeros: 1.1c3 is 1100.
        for _ in 0..<exponent { whole.append(fraction.isEmpty ? 0 : fraction.removeFirst()) }
        guard whole.count <= Self.maxDigits, fraction.count <= Self.maxDigits else { return nil }
        integerDigits = whole.reduce(0) { $0 * 10 + Int($1) }
        self.fraction = fraction
        self.exponent = exponent
    }

    /// `v`: how many fraction digits are visible, trailing zeros included.
    public var visibleFractionCount: Int { fraction.count }
    /// `f`: the visible fraction digits as an integer, trailing zeros included.
    public var visibleFraction: Int { fraction.reduce(0) { $0 * 10 + Int($1) } }
    /// `t`: the visible fraction digits as an integer, trailing zeros dropped.
    public var significantFraction: Int { significantDigits.reduce(0) { $0 * 10 + Int($1) } }
    /// `w`: how many fraction digits are visible, trailing zeros dropped.
    public var significantFractionCount: Int { significantDigits.count }
    /// Whether `n` is a whole number (`1.0` is; `1.5` is not).
    public var isWhole: Bool { fraction.allSatisfy { $0 == 0 } }

    private var significantDigits: ArraySlice<UInt8> {
        fraction[..<(fraction.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0)]
    }
}
