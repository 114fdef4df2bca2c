/// How many stars an item is rated on: `maxRating`, an integer from 1 to 10.
public struct Scale: Sendable, Hashable, Comparable {
    /// Every scale the API allows.
    public static let allowed: ClosedRange<Int> = 1...10
    /// The scale an item uses when neither it nor the server says otherwise.
    public static let standard = Scale(validated: 5)

    /// The number of stars, 1...10.
    public let maxRating: Int

    /// Makes a scale, refusing anything outside 1...10.
    public init(maxRating: Int) throws(RatingError) {
        guard Scale.allowed.contains(maxRating) else { throw .scaleOutOfRange(given: String(maxRating)) }
        self.maxRating = maxRating
    }

    private init(validated maxRating: Int) { self.maxRating = maxRating }

    /// The valid star counts on this scale.
    public var stars: ClosedRange<Int> { 1...maxRating }

    public static func < (lhs: Scale, rhs: Scale) -> Bool { lhs.maxRating < rhs.maxRating }
}
