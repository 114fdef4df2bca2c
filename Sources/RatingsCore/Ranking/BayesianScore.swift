/// An item's Bayesian score, `(W·P + Σ (stars − 1) / (maxRating − 1)) / (W + count)`, as an
/// exact fraction: each rating counts as a share of its own scale (a 1-star scale counts every
/// rating as 1), so items on different scales compare, and few ratings are pulled toward P.
/// Nothing here goes through floating point, so ties are ties and the order never drifts.
public struct BayesianScore: Sendable, Hashable, Comparable {
    /// The score is `numerator / denominator`; the denominator is positive.
    public let numerator: Int
    public let denominator: Int

    /// The score of `summary` under `settings`; nil when it cannot be ranked (no ratings).
    public init?(_ summary: ItemSummary, _ settings: RankingSettings) {
        self.init(count: summary.count, sum: summary.sum, scale: summary.scale, settings)
    }

    /// The score of `count` ratings adding up to `sum` on `scale`; nil when `count` is 0.
    public init?(count: Int, sum: Int, scale: Scale, _ settings: RankingSettings) {
        guard count > 0 else { return nil }
        let p = settings.priorTenThousandths, q = RankingSettings.priorScale, w = settings.weight
        if scale.maxRating == 1 {
            // (W·p/q + count) / (W + count)
            numerator = w * p + count * q
            denominator = q * (w + count)
        } else {
            // (W·p/q + (sum − count)/(m − 1)) / (W + count)
            let span = scale.maxRating - 1
            numerator = w * p * span + q * (sum - count)
            denominator = q * span * (w + count)
        }
    }

    public static func < (lhs: BayesianScore, rhs: BayesianScore) -> Bool {
        // Cross-multiplied in full width: both products fit in 128 bits.
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return (left.high, left.low) < (right.high, right.low)
    }

    public static func == (lhs: BayesianScore, rhs: BayesianScore) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public func hash(into hasher: inout Hasher) { hasher.combine(key.high); hasher.combine(key.low) }

    /// The score in ten-thousandths, rounded half up: `floor((20000·n + d) / (2d))`.
    public var roundedTenThousandths: Int {
        let whole = numerator / denominator, rest = numerator % denominator
        return whole * 10_000 + (20_000 * rest + denominator) / (2 * denominator)
    }

    /// The score written with four decimals (`0.7312`, `0.5000`, `1.0000`).
    public var text: String {
        let value = roundedTenThousandths
        let fraction = String(value % 10_000)
        return "\(value / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// An order key a database can index: `floor(score · 2^124)` in two non-negative 62-bit
    /// halves, compared high first. Two different scores are at least `1/(d₁·d₂)` apart, and
    /// every denominator here is below 2^62, so distinct scores get distinct keys and equal scores
    /// the same key: sorting by the key sorts by the exact score.
    public var key: (high: Int, low: Int) {
        // high = floor(n · 2^62 / d); the remainder, times 2^62, over d gives the low half.
        let shifted = (high: numerator >> 2, low: UInt(bitPattern: numerator << 62))
        let (high, rest) = denominator.dividingFullWidth(shifted)
        let restShifted = (high: rest >> 2, low: UInt(bitPattern: rest << 62))
        let (low, _) = denominator.dividingFullWidth(restShifted)
        return (high, low)
    }
}
