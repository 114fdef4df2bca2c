/// Whether a new review waits for a moderator: `post` publishes at once, `pre` holds it `pending`.
public enum ModerationMode: String, Sendable, Hashable, CaseIterable {
    case post, pre
}

/// The moderation rules of one deployment: when reviews are shown and when flags hide one. Pure:
/// each store applies them inside the transaction of the write they judge.
public struct ModerationPolicy: Sendable, Hashable {
    public let mode: ModerationMode
    /// Flags from distinct flaggers since the last decision that move a published review to
    /// `pending`.
    public let flagThreshold: Int

    /// The thresholds an operator may set.
    public static let thresholds = 1...1000

    public init(mode: ModerationMode, flagThreshold: Int) {
        self.mode = mode
        self.flagThreshold = min(max(flagThreshold, Self.thresholds.lowerBound), Self.thresholds.upperBound)
    }

    /// Post-moderation with a threshold of 3: the service's defaults.
    public static let standard = ModerationPolicy(mode: .post, flagThreshold: 3)

    /// The status a review write leaves, and the history entry when it moved a review to
    /// `pending` (reason `edited`): a new review is published under `post` and pending under
    /// `pre`; new text on a pending or rejected review makes it pending, on a published one
    /// pending only under `pre`; the same text (stars alone changing) keeps the status.
    public func statusAfterWrite(replacing existing: Review?, with text: ReviewText, at milliseconds: Int64)
        -> (status: ReviewStatus, change: ModerationEntry?) {
        guard let existing else { return (mode == .post ? .published : .pending, nil) }
        guard ReviewText(existing) != text else { return (existing.status, nil) }
        let status: ReviewStatus = existing.status == .published && mode == .post ? .published : .pending
        guard status != existing.status else { return (status, nil) }
        return (status, ModerationEntry(status: status, previous: existing.status, reason: ModerationEntry.editedReason,
                                        moderator: nil, atMilliseconds: milliseconds))
    }

    /// The history entry when `flagsThisRound` flags (from distinct flaggers, since the last
    /// decision) move a review in `status` to `pending`; nil when they do not.
    public func flagsCrossing(_ status: ReviewStatus, flagsThisRound: Int, at milliseconds: Int64) -> ModerationEntry? {
        guard status == .published, flagsThisRound >= flagThreshold else { return nil }
        return ModerationEntry(status: .pending, previous: status, reason: ModerationEntry.flagsReason, moderator: nil,
                               atMilliseconds: milliseconds)
    }
}

/// A review's words as the status rules compare them: an edit is a change of any of them.
public struct ReviewText: Sendable, Hashable {
    public let title: String?
    public let body: String
    public let language: LanguageTag?

    public init(title: String?, body: String, language: LanguageTag?) {
        self.title = title
        self.body = body
        self.language = language
    }

    public init(_ review: Review) {
        self.init(title: review.title, body: review.body, language: review.language)
    }
}

/// One entry of a review's moderation history: a moderator's decision (also one that keeps the
/// status) or an automatic change of status. Entries are only ever appended.
public struct ModerationEntry: Sendable, Hashable {
    public let status: ReviewStatus
    public let previous: ReviewStatus
    /// The moderator's reason (cleaned by `ReviewTextRule.moderationReason`, nil for none), or
    /// `flags` or `edited` for an automatic change.
    public let reason: String?
    /// The deciding token's subject; nil for an automatic change, and for a decision made where
    /// the service runs without tokens.
    public let moderator: String?
    public let atMilliseconds: Int64

    /// The reason of the change flags make on reaching the threshold.
    public static let flagsReason = "flags"
    /// The reason of the change an author's edit makes.
    public static let editedReason = "edited"

    public init(status: ReviewStatus, previous: ReviewStatus, reason: String?, moderator: String?, atMilliseconds: Int64) {
        self.status = status
        self.previous = previous
        self.reason = reason
        self.moderator = moderator
        self.atMilliseconds = atMilliseconds
    }
}

/// A review's moderation state as moderators read it.
public struct ModerationRecord: Sendable, Hashable {
    public let status: ReviewStatus
    /// Every flag on the review, by reason (also those placed before the last decision).
    public let flags: FlagCounts
    /// Oldest first.
    public let history: [ModerationEntry]

    public init(status: ReviewStatus, flags: FlagCounts, history: [ModerationEntry]) {
        self.status = status
        self.flags = flags
        self.history = history
    }
}
