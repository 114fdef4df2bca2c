/// Everything the rating rules can refuse. The API maps each case to one HTTP status.
public enum RatingError: Error, Sendable, Equatable {
    /// An item or rater identifier breaks the identifier rule.
    case invalidIdentifier(kind: IdentifierKind, problem: String)
    /// A star count outside `1...scale.maxRating`; `given` is the value as the client wrote it.
    case starsOutOfRange(given: String, scale: Scale)
    /// A scale outside 1...10; `given` is the value as the client wrote it.
    case scaleOutOfRange(given: String)
    /// The item has ratings on `current`, so its scale cannot become `requested`.
    case scaleConflict(current: Scale, requested: Scale, ratingCount: Int)
    /// The rater has no rating on the item.
    case ratingNotFound(item: ItemID, rater: RaterID)
    /// A display value that is not a JSON number.
    case invalidDisplayValue(given: String)
}
