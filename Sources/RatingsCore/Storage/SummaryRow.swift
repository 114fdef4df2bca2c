/// An item's row as both storage engines keep it: its scale, whether it was configured, and the
/// aggregates kept in the same transaction as every rating. Each engine reads one from its own
/// result type (`SummaryRow+SQLite`, `SummaryRow+Postgres`).
public struct SummaryRow: Sendable {
    public let scale: Scale
    public let isScaleExplicit: Bool
    public let count: Int
    public let sum: Int
    /// Ratings per star count, `distribution[k]` for `k + 1` stars, as many as the columns hold.
    public let distribution: PerStar
    /// Published reviews.
    public let reviewCount: Int
    /// How many writes that recorded events the item has had (`itemVersion`).
    public let version: Int64

    /// The stored columns, in the order every engine's reader takes them.
    public static let columnNames = ["max_rating", "scale_explicit", "rating_count", "rating_sum"] + (1...10).map { "stars_\($0)" }
        + ["review_count", "version"]

    /// How many columns a row takes in a result.
    public static let columnCount = columnNames.count

    /// `columnNames` as a select list.
    public static let columns = columnNames.joined(separator: ", ")

    /// A row from its stored columns. The CHECK constraint keeps `maxRating` in 1...10; a row
    /// tampered with outside the service reads as the standard scale rather than trapping.
    public init(maxRating: Int, isScaleExplicit: Bool, count: Int, sum: Int, distribution: PerStar, reviewCount: Int, version: Int64 = 0) {
        scale = (try? Scale(maxRating: maxRating)) ?? .standard
        self.isScaleExplicit = isScaleExplicit
        self.count = count
        self.sum = sum
        self.distribution = distribution
        self.reviewCount = reviewCount
        self.version = version
    }

    /// A new item's row: its scale and no ratings.
    public static func unrated(on scale: Scale, isScaleExplicit: Bool) -> SummaryRow {
        SummaryRow(maxRating: scale.maxRating, isScaleExplicit: isScaleExplicit, count: 0, sum: 0,
                   distribution: PerStar(length: PerStar.capacity) { _ in 0 }, reviewCount: 0)
    }

    /// The row once one rating moves into `new` stars, out of `old`, or from one to the other
    /// (nil for none): what every engine's `applyDelta` statement makes of it.
    public func moving(into new: Int?, outOf old: Int?) -> SummaryRow {
        SummaryRow(maxRating: scale.maxRating, isScaleExplicit: isScaleExplicit,
                   count: count + (new == nil ? 0 : 1) - (old == nil ? 0 : 1),
                   sum: sum + (new ?? 0) - (old ?? 0),
                   distribution: PerStar(length: distribution.count) { index in
                       distribution[index] + (new == index + 1 ? 1 : 0) - (old == index + 1 ? 1 : 0)
                   },
                   reviewCount: reviewCount, version: version)
    }

    /// The row once `change` published reviews are added (or, negative, removed).
    public func movingReviews(by change: Int) -> SummaryRow {
        SummaryRow(maxRating: scale.maxRating, isScaleExplicit: isScaleExplicit, count: count, sum: sum, distribution: distribution,
                   reviewCount: reviewCount + change, version: version)
    }

    /// The row once a write that records events has moved its version on (`bumped`), or as it is.
    public func movingVersion(_ bumped: Bool) -> SummaryRow {
        guard bumped else { return self }
        return SummaryRow(maxRating: scale.maxRating, isScaleExplicit: isScaleExplicit, count: count, sum: sum, distribution: distribution,
                          reviewCount: reviewCount, version: version + 1)
    }

    /// The item's summary.
    public func summary(of item: ItemID) -> ItemSummary {
        ItemSummary(item: item, scale: scale, count: count, sum: sum, distribution: distribution, reviewCount: reviewCount)
    }
}
