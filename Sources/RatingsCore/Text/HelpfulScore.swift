/// How helpful readers found a review: the lower bound of the 95 % Wilson score interval of
/// `up / (up + down)` (z = 1.96), 0 without votes. "Most helpful" sorts by it, so a review with
/// 9 of 10 votes up ranks above one with its only vote up.
public struct HelpfulScore: Sendable, Hashable, Comparable {
    /// The bound scaled to an integer, `floor(bound × 10^15)`: the key every engine stores and
    /// sorts by, computed by this one function from the counts, so all engines order alike.
    public let key: Int64

    public init(up: Int, down: Int) {
        guard up > 0 else {
            key = 0
            return
        }
        let total = Double(up + down), z = 1.96, share = Double(up) / total, z2 = z * z
        let bound = (share + z2 / (2 * total) - z * (share * (1 - share) / total + z2 / (4 * total * total)).squareRoot())
            / (1 + z2 / total)
        key = Int64((max(0, min(1, bound)) * 1e15).rounded(.down))
    }

    /// The bound itself, from the key.
    public var lowerBound: Double { Double(key) / 1e15 }

    public static func < (a: HelpfulScore, b: HelpfulScore) -> Bool { a.key < b.key }
}
