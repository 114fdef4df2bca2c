/// What the review rules can refuse. The API maps each case to one HTTP status.
public enum ReviewError: Error, Sendable, Equatable {
    /// A control character at `position` (scalar values from 1, in the text as sent).
    case controlCharacter(field: String, position: Int, scalar: UInt32)
    /// More than `limit` scalar values after the text rules.
    case textTooLong(field: String, limit: Int, found: Int)
    /// A required text absent, or empty after trimming.
    case textRequired(field: String)
    /// A language that is not a BCP 47 tag as the rules accept it.
    case invalidLanguageTag(given: String, problem: String)
    /// The rater has no review of the item (or none that is published, for a vote).
    case reviewNotFound(item: ItemID, rater: RaterID)
    /// A rater acting on their own review where only others may (a helpfulness vote).
    case ownReview(rater: RaterID)
}
