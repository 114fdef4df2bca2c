/// Where reviews and their helpfulness votes live, beside the ratings they belong to: every
/// store is both. Calls are asynchronous as `RatingStore`'s are; a review write moves the rating,
/// the item's aggregates and `reviewCount` in one transaction. Refusals arrive as `RatingError`
/// (stars off the scale) or `ReviewError`.
public protocol ReviewStore: RatingStore, OutboxStore {
    /// The rater's review of the item in any status, or nil when there is none.
    func review(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Review?>)

    /// Stores the rating and the text in one transaction, keeping `createdAt` and the votes of
    /// a review being replaced; the status follows `ModerationPolicy.statusAfterWrite`, and a
    /// change it makes is appended to the review's history in the same transaction.
    func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>)

    /// Removes the rater's review of the item with its reply, votes and flags, keeping the
    /// rating and the review's moderation history.
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

    /// Places, replaces or (with `reason` nil) withdraws a flag. When flags from distinct flaggers
    /// since the last decision reach the policy's threshold on a published review, the review
    /// becomes `pending` in the same transaction (out of the lists and `reviewCount`), with an
    /// entry in its history: once, however many flags arrive together. Fails with
    /// `ReviewError.reviewNotFound` and `ReviewError.ownReview` (`FlagRequest.target`).
    func flag(_ request: FlagRequest, completion: @escaping StoreCompletion<FlagOutcome>)

    /// Records a moderator's decision, sets the status it names, and starts a new round of flags
    /// toward the threshold. Fails with `ReviewError.reviewNotFound` when there is no review.
    func moderate(_ request: ModerationRequest, completion: @escaping StoreCompletion<ModerationOutcome>)

    /// The review's status, flags and history; nil when the rater has no review of the item.
    func moderation(of item: ItemID, by rater: RaterID, completion: @escaping StoreCompletion<ModerationRecord?>)

    /// Up to `limit` pending reviews of every item after `position`, longest waiting first.
    func moderationQueue(after position: QueuePosition?, limit: Int, completion: @escaping StoreCompletion<ModerationQueuePage>)

    /// How many reviews are pending, over every item.
    func pendingReviewCount(completion: @escaping StoreCompletion<Int>)

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
    /// Decides the status the write leaves.
    public let policy: ModerationPolicy
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, stars: Int, title: String?, body: String, language: LanguageTag?,
                defaultScale: Scale, policy: ModerationPolicy, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.title = title
        self.body = body
        self.language = language
        self.defaultScale = defaultScale
        self.policy = policy
        self.nowMilliseconds = nowMilliseconds
    }

    /// The words the request writes, as the status rules compare them.
    public var text: ReviewText { ReviewText(title: title, body: body, language: language) }

    /// The status the write leaves on `existing` (nil for a new review), and the change it makes.
    public func status(replacing existing: Review?) -> (status: ReviewStatus, change: ModerationEntry?) {
        policy.statusAfterWrite(replacing: existing, with: text, at: nowMilliseconds)
    }
}

/// What a review write changed.
public struct ReviewWriteOutcome: Sendable {
    public let review: Review
    /// True when the rater had no review of the item before (a rating alone does not count).
    public let created: Bool
    /// The item's summary after the write.
    public let summary: ItemSummary
    /// The automatic change of status the write made (reason `edited`), if any.
    public let change: ModerationEntry?

    public init(review: Review, created: Bool, summary: ItemSummary, change: ModerationEntry? = nil) {
        self.review = review
        self.created = created
        self.summary = summary
        self.change = change
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
