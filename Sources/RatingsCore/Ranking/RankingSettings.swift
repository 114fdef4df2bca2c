import ASCIIKit

/// The operator's choice for the Bayesian ranking: the prior `P` (the score an item with no
/// ratings would have, 0…1) and the weight `W` (how many ratings' worth of belief the prior
/// carries, 0…100,000). `P` is kept exactly as ten-thousandths, so scores are exact fractions.
public struct RankingSettings: Sendable, Hashable {
    /// Most decimals the prior may be written with.
    public static let priorDecimals = 4
    /// Ten to the `priorDecimals`: the prior's denominator.
    public static let priorScale = 10_000
    /// The weights allowed.
    public static let weights: ClosedRange<Int> = 0...100_000

    /// The prior in ten-thousandths (5000 is 0.5).
    public let priorTenThousandths: Int
    public let weight: Int

    /// The defaults: P = 0.5, W = 10.
    public static let standard = RankingSettings(validatedPrior: 5_000, weight: 10)

    private init(validatedPrior: Int, weight: Int) {
        priorTenThousandths = validatedPrior
        self.weight = weight
    }

    /// Reads the prior as written (`0.5`, `1`, `0.7312`) and the weight; nil with the reason
    /// when either is outside its range or written otherwise.
    public static func parse(prior: String, weight: Int) -> Result<RankingSettings, RankingSettingsError> {
        guard weights.contains(weight) else { return .failure(.weight) }
        let parts = prior.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, ASCII.isDecimal(whole), whole.count <= 1 else { return .failure(.prior) }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard parts.count == 1 || (ASCII.isDecimal(fraction) && fraction.count <= priorDecimals) else { return .failure(.prior) }
        fraction += String(repeating: "0", count: priorDecimals - fraction.count)
        guard let wholeValue = ASCII.integer(whole, in: 0...1), let fractionValue = ASCII.integer(fraction, in: 0...9_999) else {
            return .failure(.prior)
        }
        let value = wholeValue * priorScale + fractionValue
        guard value <= priorScale else { return .failure(.prior) }
        return .success(RankingSettings(validatedPrior: value, weight: weight))
    }

    /// The prior as written back (`0.5`).
    public var priorText: String {
        let whole = priorTenThousandths / Self.priorScale, fraction = priorTenThousandths % Self.priorScale
        guard fraction > 0 else { return String(whole) }
        var digits = ASCII.padded(fraction, Self.priorDecimals)
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

/// Which ranking setting is out of range.
public enum RankingSettingsError: Error, Sendable, Equatable {
    /// The prior is not a decimal from 0 to 1 with at most four decimals.
    case prior
    /// The weight is not an integer from 0 to 100,000.
    case weight
}

extension RankingSettings {
    /// The stored order key of an item with `count` ratings adding up to `sum` on `scale`, as
    /// SQL parameters: nil (NULL) while it has no ratings.
    public func key(count: Int, sum: Int, scale: Scale) -> (high: Int?, low: Int?) {
        guard let score = BayesianScore(count: count, sum: sum, scale: scale, self) else { return (nil, nil) }
        return (score.key.high, score.key.low)
    }

    /// How the settings are recorded beside the scores computed with them (`0.5/10`).
    public var recorded: String { "\(priorText)/\(weight)" }
}
