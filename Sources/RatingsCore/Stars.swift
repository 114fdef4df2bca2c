/// One rater's rating: a whole number of stars from 1 to the item's `maxRating`.
public struct Stars: Sendable, Hashable {
    /// The number of stars.
    public let count: Int

    /// Makes a rating, refusing a count outside `1...scale.maxRating`.
    public init(_ count: Int, on scale: Scale) throws(RatingError) {
        guard scale.stars.contains(count) else { throw .starsOutOfRange(given: String(count), scale: scale) }
        self.count = count
    }

    /// Rebuilds a value that was validated before it was stored.
    public init(stored count: Int) { self.count = count }
}
