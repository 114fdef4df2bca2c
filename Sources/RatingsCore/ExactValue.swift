/// A nonnegative rational number `numerator / denominator`: the unrounded value a display is
/// drawn from. Every rounding rule of the API (docs/api.md) is decided on integers, so no floating-point
/// drift can move a tie.
public struct ExactValue: Sendable, Hashable {
    /// The numerator, ≥ 0.
    public let numerator: Int
    /// The denominator, > 0.
    public let denominator: Int

    /// The mean of `count` ratings adding up to `sum`; zero when there are none.
    public init(sum: Int, count: Int) {
        if count <= 0 || sum <= 0 {
            self.init(unchecked: 0, 1)
        } else {
            self.init(unchecked: sum, count)
        }
    }

    /// A whole number of stars.
    public init(stars: Stars) { self.init(unchecked: stars.count, 1) }

    /// A value given in thousandths, e.g. 3250 for 3.25; negative values count as zero.
    public init(thousandths: Int) { self.init(unchecked: max(thousandths, 0), 1000) }

    private init(unchecked numerator: Int, _ denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// This value, or `limit` when it is larger.
    public func clamped(to limit: Int) -> ExactValue {
        numerator / denominator >= limit ? ExactValue(unchecked: limit, 1) : self
    }

    /// The value rounded to the nearest 0.5, ties up, in half steps (7 means 3.5):
    /// `floor((4p + q) / (2q))`. Worked on the remainder so large counts cannot overflow.
    public var roundedHalfSteps: Int {
        let whole = numerator / denominator, rest = numerator % denominator
        let extra = 4 * rest >= 3 * denominator ? 2 : (4 * rest >= denominator ? 1 : 0)
        return 2 * whole + extra
    }

    /// The value rounded to two decimals, ties up, in hundredths: `floor((200p + q) / (2q))`.
    public var roundedHundredths: Int {
        let whole = numerator / denominator, rest = numerator % denominator
        return 100 * whole + ExactValue.hundredths(of: rest, over: denominator)
    }

    /// The share of star `n` (1-based) that this value covers, `min(max(x − (n − 1), 0), 1)`,
    /// rounded to two decimals, ties up, in hundredths.
    public func fillHundredths(ofStar n: Int) -> Int {
        let whole = numerator / denominator
        if whole >= n { return 100 }
        if whole < n - 1 { return 0 }
        return ExactValue.hundredths(of: numerator % denominator, over: denominator)
    }

    /// `floor((200·rest + q) / (2q))` for `0 ≤ rest < q`: a proper fraction in hundredths, ties up.
    private static func hundredths(of rest: Int, over denominator: Int) -> Int {
        (200 * rest + denominator) / (2 * denominator)
    }
}
