/// One rater's stored rating of one item.
public struct Rating: Sendable, Hashable {
    /// The rated item.
    public let item: ItemID
    /// Who rated it.
    public let rater: RaterID
    /// How many stars.
    public let stars: Stars
    /// The item's scale, which the stars are drawn on.
    public let scale: Scale
    /// When it was last written, in milliseconds since the Unix epoch (UTC).
    public let updatedAtMilliseconds: Int64

    /// Assembles a rating.
    public init(item: ItemID, rater: RaterID, stars: Stars, scale: Scale, updatedAtMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.scale = scale
        self.updatedAtMilliseconds = updatedAtMilliseconds
    }

    /// How this rating is drawn and announced.
    public var display: Display { Display(stars, on: scale) }
}
