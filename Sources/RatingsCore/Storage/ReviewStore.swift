/// Where reviews and their helpfulness votes live, beside the ratings they belong to: every
/// store is both. Calls are asynchronous as `RatingStore`'s are; a review write moves the rating,
/// the item's aggregates and `reviewCount` in one transaction. Refusals arrive as `RatingError`
/// (stars off the scale) or `ReviewError`.
public protocol ReviewStore: RatingStore {
    /// The rater's review of the item in any status, or nil when there is none.
    func review(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Review?>)

    /// Stores the rating and the text in one transaction, keeping `createdAt`, the status and
    /// the votes of a review being replaced.
    func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>)

    /// Removes the rater's review of the item with its votes, keeping the rating.
    func removeReview(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>)

    /// Up to `limit` of the item's published reviews that pass `filter`, after `position` in
    /// `sort` (from the first when nil). Served by the sort's index, never by skipping rows.
    func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter, after position: ReviewPosition?, limit: Int,
                 defaultScale: Scale, completion: @escaping StoreCompletion<ItemReviewPage>)

    /// Up to `limit` of the rater's reviews in every status after `position`, newest change
    /// first, ties by item id.
    func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                 completion: @escaping StoreCompletion<RaterReviewPage>)

    /// Stores, replaces or (with `helpful` nil) withdraws a vote on a published review, moving its
    /// counts and helpful key in the same transaction. Fails with `ReviewError.reviewNotFound`
    /// and `ReviewError.ownReview`.
    func vote(_ request: VoteRequest, completion: @escaping StoreCompletion<VoteOutcome>)

    /// Stores, replaces or (with `body` nil) removes the reply to a published review. Fails with
    /// `ReviewError.reviewNotFound` when there is no published review.
    func reply(_ request: ReplyRequest, completion: @escaping StoreCompletion<ReplyOutcome>)

    /// A number that moves whenever an acknowledged write changes anything the item's review
    /// lists show, when the store can vouch for that (its process holds the only writer); nil
    /// otherwise. Taken before a list is read, it says whether that list is still current: for as
    /// long as it does not move. From memory; never waits.
    func reviewListVersion(of item: ItemID) -> UInt64?
}

/// Stores that cannot see every write (another process may write) vouch for no list.
extension ReviewStore {
    public func reviewListVersion(of item: ItemID) -> UInt64? { nil }
}

/// A review to store with its rating.
public struct ReviewWriteRequest: Sendable {
    public let item: ItemID
    public let rater: RaterID
    /// The stars as the client sent them, validated against the item's scale inside the write.
    public let stars: Int
    /// Already cleaned by the text rules.
    public let title: String?
    public let body: String
    public let language: LanguageTag?
    public let defaultScale: Scale
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, stars: Int, title: String?, body: String, language: LanguageTag?,
                defaultScale: Scale, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.title = title
        self.body = body
        self.language = language
        self.defaultScale = defaultScale
        self.nowMilliseconds = nowMilliseconds
    }
}

/// What a review write changed.
public struct ReviewWriteOutcome: Sendable {
    public let review: Review
    /// True when the rater had no review of the item before (a rating alone does not count).
    public let created: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary

    public init(review: Review, created: Bool, summary: ItemSummary) {
        self.review = review
        self.created = created
        self.summary = summary
    }
}

/// A helpfulness vote to store, replace or withdraw.
public struct VoteRequest: Sendable {
    public let item: ItemID
    /// The review's author.
    public let rater: RaterID
    public let voter: RaterID
    /// nil withdraws the voter's vote.
    public let helpful: Bool?

    public init(item: ItemID, rater: RaterID, voter: RaterID, helpful: Bool?) {
        self.item = item
        self.rater = rater
        self.voter = voter
        self.helpful = helpful
    }
}

extension VoteRequest {
    /// The review the vote goes on, as the rules allow it: one that exists and is published
    /// (else `reviewNotFound`), not the voter's own (else `ownReview`).
    public func target(_ review: Review?) throws(ReviewError) -> Review {
        guard let review, review.status == .published else { throw .reviewNotFound(item: item, rater: rater) }
        guard voter != rater else { throw .ownReview(rater: rater) }
        return review
    }

    /// What the vote makes of `review`, on which the voter's earlier vote was `old` (nil for none).
    public func outcome(on review: Review, replacing old: Bool?) -> VoteOutcome {
        var voted = review
        voted.votes = review.votes.moving(into: helpful, outOf: old)
        return VoteOutcome(created: old == nil && helpful != nil, review: voted)
    }
}

/// What a vote changed.
public struct VoteOutcome: Sendable {
    /// True when the voter had no vote on the review before.
    public let created: Bool
    /// The review after the vote.
    public let review: Review

    public init(created: Bool, review: Review) {
        self.created = created
        self.review = review
    }
}

/// A reply to store, replace or remove.
public struct ReplyRequest: Sendable {
    public let item: ItemID
    /// The review's author.
    public let rater: RaterID
    /// Cleaned by `ReviewTextRule.reply`; nil removes the reply.
    public let body: String?
    /// The replying token's subject; nil without tokens.
    public let author: String?
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, body: String?, author: String?, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.body = body
        self.author = author
        self.nowMilliseconds = nowMilliseconds
    }
}

extension ReplyRequest {
    /// The review the reply goes on: one that exists and is published (else `reviewNotFound`).
    public func target(_ review: Review?) throws(ReviewError) -> Review {
        guard let review, review.status == .published else { throw .reviewNotFound(item: item, rater: rater) }
        return review
    }

    /// What the request makes of `review`'s reply.
    public func outcome(on review: Review) -> ReplyOutcome {
        var replied = review
        replied.reply = body.map { ReviewReply(body: $0, author: author, updatedAtMilliseconds: nowMilliseconds) }
        return ReplyOutcome(created: review.reply == nil && replied.reply != nil, review: replied)
    }
}

/// What a reply changed.
public struct ReplyOutcome: Sendable {
    /// True when the review had no reply before.
    public let created: Bool
    /// The review after the change.
    public let review: Review

    public init(created: Bool, review: Review) {
        self.created = created
        self.review = review
    }
}
