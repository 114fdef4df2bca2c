/// Where ratings live. The API sees storage only through this protocol, so the rules above it
/// never depend on SQL, and tests can run the same API over any store.
///
/// Reads answer synchronously. Writes complete through a callback once they are durable, which
/// lets a store commit many concurrent writes in one transaction (group commit).
public protocol RatingStore: Sendable {
    /// The item's summary; an unknown item reads as having no ratings on `defaultScale`.
    func summary(of item: ItemID, defaultScale: Scale) throws -> ItemSummary

    /// Summaries of several items, in the order given (repeats repeated).
    func summaries(of items: [ItemID], defaultScale: Scale) throws -> [ItemSummary]

    /// One rater's rating of an item, or nil when there is none.
    func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale) throws -> Rating?

    /// Stores `stars` as the rater's rating, replacing any earlier one. An item without a scale
    /// takes `defaultScale` and keeps it. Fails with `RatingError.starsOutOfRange` when `stars` is
    /// not on the item's scale.
    func submit(_ request: SubmitRequest, completion: @escaping @Sendable (Result<SubmitOutcome, any Error>) -> Void)

    /// Removes the rater's rating, if any.
    func clear(_ request: ClearRequest, completion: @escaping @Sendable (Result<ClearOutcome, any Error>) -> Void)

    /// Sets the item's scale. Fails with `RatingError.scaleConflict` when the item has ratings on
    /// another scale.
    func configure(_ request: ConfigureRequest, completion: @escaping @Sendable (Result<ConfigureOutcome, any Error>) -> Void)

    /// Whether the store can answer queries now.
    func isReady() -> Bool
}

/// A rating to store.
public struct SubmitRequest: Sendable {
    public let item: ItemID
    public let rater: RaterID
    /// The stars as the client sent them, validated against the item's scale inside the write.
    public let stars: Int
    public let defaultScale: Scale
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, stars: Int, defaultScale: Scale, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.defaultScale = defaultScale
        self.nowMilliseconds = nowMilliseconds
    }
}

/// A rating to remove.
public struct ClearRequest: Sendable {
    public let item: ItemID
    public let rater: RaterID
    public let defaultScale: Scale

    public init(item: ItemID, rater: RaterID, defaultScale: Scale) {
        self.item = item
        self.rater = rater
        self.defaultScale = defaultScale
    }
}

/// A scale to set on an item.
public struct ConfigureRequest: Sendable {
    public let item: ItemID
    public let scale: Scale

    public init(item: ItemID, scale: Scale) {
        self.item = item
        self.scale = scale
    }
}

/// What a stored rating changed.
public struct SubmitOutcome: Sendable {
    /// The rating as stored.
    public let rating: Rating
    /// True when the rater had no rating on the item before.
    public let created: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary

    public init(rating: Rating, created: Bool, summary: ItemSummary) {
        self.rating = rating
        self.created = created
        self.summary = summary
    }
}

/// What clearing a rating changed.
public struct ClearOutcome: Sendable {
    /// True when a rating was removed; false when there was none.
    public let cleared: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary

    public init(cleared: Bool, summary: ItemSummary) {
        self.cleared = cleared
        self.summary = summary
    }
}

/// What setting a scale changed.
public struct ConfigureOutcome: Sendable {
    /// True when the item had no explicit scale before.
    public let created: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary

    public init(created: Bool, summary: ItemSummary) {
        self.created = created
        self.summary = summary
    }
}

/// A failure of the storage itself (disk, lock, corruption), as opposed to a refused input.
/// The API answers these with 503 and logs the description.
public protocol StorageFailure: Error, CustomStringConvertible {}
