/// Where ratings live: the only way the API reaches data. Every call is asynchronous: it returns
/// at once and delivers its result through `completion`, on a thread of the store's choosing, so
/// that nothing which can wait on a disk, a lock or a network runs on the caller's thread. A store
/// may deliver on the caller's thread before returning when it can answer without waiting (from
/// memory, say); callers must not depend on either.
///
/// Writes complete once they are durable, which lets a store commit many concurrent writes in one
/// transaction (group commit). Refusals of the rating rules arrive as `RatingError`; failures of
/// the storage itself as `StorageFailure`.
public protocol RatingStore: Sendable {
    /// The item's summary; an unknown item reads as having no ratings on `defaultScale`.
    func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>)

    /// Summaries of several items, in the order given (repeats repeated), each with `rater`'s own
    /// stars when a rater is named, read from one snapshot.
    func summaries(of items: [ItemID], rater: RaterID?, defaultScale: Scale, completion: @escaping StoreCompletion<[ItemListing]>)

    /// The item's summary when the store holds it in memory and knows it current (no
    /// acknowledged write is newer); else nil, and the caller asks `summary(of:)`. A hot read so
    /// answers at once, without a continuation. Never waits.
    func cachedSummary(of item: ItemID, defaultScale: Scale) -> ItemSummary?

    /// `cachedSummary` of several items, in the order given: nil unless every one is cached.
    func cachedSummaries(of items: [ItemID], defaultScale: Scale) -> [ItemSummary]?

    /// One rater's rating of an item, or nil when there is none.
    func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Rating?>)

    /// Stores `stars` as the rater's rating, replacing any earlier one. An item without a scale
    /// takes `defaultScale` and keeps it. Fails with `RatingError.starsOutOfRange` when `stars` is
    /// not on the item's scale.
    func submit(_ request: SubmitRequest, completion: @escaping StoreCompletion<SubmitOutcome>)

    /// Removes the rater's rating, if any.
    func clear(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>)

    /// Sets the item's scale. Fails with `RatingError.scaleConflict` when the item has ratings on
    /// another scale.
    func configure(_ request: ConfigureRequest, completion: @escaping StoreCompletion<ConfigureOutcome>)

    /// Up to `limit` of the rater's ratings after `position` (from the newest when nil), newest
    /// first, ties by item id; each on its item's scale. Served by an index, never by skipping rows.
    func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                 completion: @escaping StoreCompletion<RaterPage>)

    /// Removes every rating of the rater with their reviews (and others' votes on them) and the
    /// votes the rater gave, and updates every aggregate and helpful key they moved, in one
    /// transaction; delivers what was removed.
    func erase(_ rater: RaterID, completion: @escaping StoreCompletion<Erasure>)

    /// Up to `limit` items with at least `minCount` (and at least one) ratings after `position`
    /// (from the top when nil), by Bayesian score under the store's ranking settings, then count,
    /// then item id. Served by an index kept in the same transaction as every write.
    func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, completion: @escaping StoreCompletion<RankingPage>)

    /// A secret shared by every process on this store's data, for sealing pagination cursors so
    /// that a cursor one replica issued is accepted by every other.
    var cursorSecret: [UInt8] { get }

    /// Succeeds when the store can answer queries now.
    func checkReady(completion: @escaping StoreCompletion<Void>)
}

/// How a store delivers a result: once, on any thread.
public typealias StoreCompletion<Value> = @Sendable (Result<Value, any Error>) -> Void

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
    /// When the clear happened, for its events.
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, defaultScale: Scale, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.defaultScale = defaultScale
        self.nowMilliseconds = nowMilliseconds
    }
}

/// A scale to set on an item.
public struct ConfigureRequest: Sendable {
    public let item: ItemID
    public let scale: Scale
    /// When the scale was set, for its event.
    public let nowMilliseconds: Int64

    public init(item: ItemID, scale: Scale, nowMilliseconds: Int64) {
        self.item = item
        self.scale = scale
        self.nowMilliseconds = nowMilliseconds
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
    /// True when a rating (or, for `removeReview`, a review) was removed; false when there was none.
    public let cleared: Bool
    /// True when a review was removed, with its rating or alone.
    public let removedReview: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary

    public init(cleared: Bool, removedReview: Bool = false, summary: ItemSummary) {
        self.cleared = cleared
        self.removedReview = removedReview
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

/// What erasing a rater removed.
public struct Erasure: Sendable, Hashable {
    /// The rater's ratings.
    public let ratings: Int
    /// The rater's reviews (with the votes others gave on them).
    public let reviews: Int
    /// The votes the rater gave on others' reviews.
    public let votes: Int
    /// The flags the rater placed on others' reviews.
    public let flags: Int

    public init(ratings: Int, reviews: Int, votes: Int, flags: Int) {
        self.ratings = ratings
        self.reviews = reviews
        self.votes = votes
        self.flags = flags
    }
}

/// A failure of the storage itself (disk, lock, corruption), as opposed to a refused input.
/// The API answers these with 503 and logs the description.
public protocol StorageFailure: Error, CustomStringConvertible {}

/// Stores that keep nothing in memory answer every read through `summary(of:)`.
extension RatingStore {
    public func cachedSummary(of item: ItemID, defaultScale: Scale) -> ItemSummary? { nil }

    public func cachedSummaries(of items: [ItemID], defaultScale: Scale) -> [ItemSummary]? { nil }
}
