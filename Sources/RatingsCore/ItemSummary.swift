/// What is known about one item: its scale and the aggregate of its ratings. Reads are O(1)
/// because the store keeps count, sum and histogram up to date with every write.
public struct ItemSummary: Sendable, Hashable {
    /// The item.
    public let item: ItemID
    /// The item's scale: its own, or the server default when it has none yet.
    public let scale: Scale
    /// How many raters rated it.
    public let count: Int
    /// The sum of all its ratings' stars.
    public let sum: Int
    /// `distribution[k]` counts the ratings of `k + 1` stars; exactly `scale.maxRating` entries.
    public let distribution: PerStar
    /// How many of its reviews are published.
    public let reviewCount: Int

    /// Assembles a summary; `distribution` is cut or padded with zeros to the scale's length.
    public init(item: ItemID, scale: Scale, count: Int, sum: Int, distribution: PerStar, reviewCount: Int) {
        self.item = item
        self.scale = scale
        self.count = count
        self.sum = sum
        self.distribution = distribution.resized(to: scale.maxRating)
        self.reviewCount = reviewCount
    }

    /// A never-rated item on `scale`.
    public static func empty(_ item: ItemID, on scale: Scale) -> ItemSummary {
        ItemSummary(item: item, scale: scale, count: 0, sum: 0, distribution: [], reviewCount: 0)
    }

    /// The exact mean.
    public var exactAverage: ExactValue { ExactValue(sum: sum, count: count) }

    /// The mean rounded to two decimals (ties up) in hundredths; nil when there are no ratings.
    public var averageHundredths: Int? { count > 0 ? exactAverage.roundedHundredths : nil }

    /// The display of the exact mean.
    public var display: Display { Display(exactAverage, on: scale) }
}
