/// A flag to place, replace or (with `reason` nil) withdraw.
public struct FlagRequest: Sendable {
    public let item: ItemID
    /// The review's author.
    public let rater: RaterID
    public let flagger: RaterID
    /// nil withdraws the flagger's flag.
    public let reason: FlagReason?
    /// Cleaned by `ReviewTextRule.flagNote`; nil for none.
    public let note: String?
    public let policy: ModerationPolicy
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, flagger: RaterID, reason: FlagReason?, note: String?, policy: ModerationPolicy,
                nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.flagger = flagger
        self.reason = reason
        self.note = note
        self.policy = policy
        self.nowMilliseconds = nowMilliseconds
    }
}

extension FlagRequest {
    /// The review the request acts on, as the rules allow it: a flag goes on a published review
    /// (else `reviewNotFound`, as the review is hidden from the flagger), a withdrawal also on
    /// one the flagger's flag helped hide; never on the flagger's own (`ownReview`).
    public func target(_ review: Review?, flaggerHasFlag: Bool) throws(ReviewError) -> Review {
        guard let review, review.status == .published || (reason == nil && flaggerHasFlag) else {
            throw .reviewNotFound(item: item, rater: rater)
        }
        guard flagger != rater else { throw .ownReview(rater: rater) }
        return review
    }
}

/// What a flag changed.
public struct FlagOutcome: Sendable {
    /// True when the flagger had no flag on the review before.
    public let created: Bool
    /// The review after the flag: `pending` when the flag reached the threshold.
    public let review: Review
    /// The automatic change the flag made (reason `flags`), if it reached the threshold.
    public let change: ModerationEntry?

    public init(created: Bool, review: Review, change: ModerationEntry?) {
        self.created = created
        self.review = review
        self.change = change
    }
}

/// A moderator's decision on a review.
public struct ModerationRequest: Sendable {
    public let item: ItemID
    /// The review's author.
    public let rater: RaterID
    /// `published` or `rejected`: a moderator never makes a review pending.
    public let status: ReviewStatus
    /// Cleaned by `ReviewTextRule.moderationReason`; nil for none.
    public let reason: String?
    /// The deciding token's subject; nil without tokens.
    public let moderator: String?
    public let nowMilliseconds: Int64

    public init(item: ItemID, rater: RaterID, status: ReviewStatus, reason: String?, moderator: String?, nowMilliseconds: Int64) {
        self.item = item
        self.rater = rater
        self.status = status
        self.reason = reason
        self.moderator = moderator
        self.nowMilliseconds = nowMilliseconds
    }

    /// The history entry of this decision on a review now in `current`: recorded even when it
    /// keeps the status.
    public func entry(from current: ReviewStatus) -> ModerationEntry {
        ModerationEntry(status: status, previous: current, reason: reason, moderator: moderator, atMilliseconds: nowMilliseconds)
    }
}

/// What a decision changed.
public struct ModerationOutcome: Sendable {
    /// The review's state after the decision, its entry last in the history.
    public let record: ModerationRecord
    /// The review after the decision.
    public let review: Review

    public init(record: ModerationRecord, review: Review) {
        self.record = record
        self.review = review
    }
}

/// A pending review in the moderation queue, with its flags.
public struct QueuedReview: Sendable, Hashable {
    public let review: Review
    public let flags: FlagCounts
    /// When the review became pending (kept while it stays pending, through edits).
    public let pendingSinceMilliseconds: Int64

    public init(review: Review, flags: FlagCounts, pendingSinceMilliseconds: Int64) {
        self.review = review
        self.flags = flags
        self.pendingSinceMilliseconds = pendingSinceMilliseconds
    }

    public var position: QueuePosition {
        QueuePosition(pendingSinceMilliseconds: pendingSinceMilliseconds, item: review.item, rater: review.rater)
    }
}

/// Where a page of the moderation queue stopped. The queue is ordered by how long a review has
/// been pending, longest first, ties by item id and then rater id (bytewise).
public struct QueuePosition: Sendable, Hashable {
    public let pendingSinceMilliseconds: Int64
    public let item: ItemID
    public let rater: RaterID

    public init(pendingSinceMilliseconds: Int64, item: ItemID, rater: RaterID) {
        self.pendingSinceMilliseconds = pendingSinceMilliseconds
        self.item = item
        self.rater = rater
    }

    /// Whether `other` comes after this position in the queue.
    public func isFollowed(by other: QueuePosition) -> Bool {
        if other.pendingSinceMilliseconds != pendingSinceMilliseconds { return other.pendingSinceMilliseconds > pendingSinceMilliseconds }
        if other.item != item { return item.rawValue.utf8.lexicographicallyPrecedes(other.item.rawValue.utf8) }
        return rater.rawValue.utf8.lexicographicallyPrecedes(other.rater.rawValue.utf8)
    }
}

/// A page of the moderation queue.
public struct ModerationQueuePage: Sendable, Hashable {
    public let entries: [QueuedReview]
    /// Where the next page starts; nil on the last page.
    public let next: QueuePosition?

    public init(entries: [QueuedReview], next: QueuePosition?) {
        self.entries = entries
        self.next = next
    }

    /// The first `limit` of `fetched`, in queue order, of which a store read up to `limit + 1`.
    public init(cutting fetched: [QueuedReview], limit: Int) {
        let (page, next) = cut(fetched, limit: limit) { $0.position }
        self.init(entries: page, next: next)
    }
}
