/// A rater's written review of an item, with the stars of their rating of it.
public struct Review: Sendable, Hashable {
    public let item: ItemID
    public let rater: RaterID
    /// The rating's stars: a review never exists without a rating.
    public let stars: Stars
    /// The item's scale, which the stars are drawn on.
    public let scale: Scale
    /// Cleaned by `ReviewTextRule.title`; nil for none.
    public let title: String?
    /// Cleaned by `ReviewTextRule.body`.
    public let body: String
    public let language: LanguageTag?
    /// Variable, as the votes: a moderator's decision or flags change it on unchanged text.
    public var status: ReviewStatus
    /// When the text was first written, kept across edits (milliseconds since the Unix epoch).
    public let createdAtMilliseconds: Int64
    /// The last change of stars or text.
    public let updatedAtMilliseconds: Int64
    /// Variable, as the reply: a vote or a reply changes them on an otherwise unchanged review.
    public var votes: HelpfulVotes
    /// The item owner's public answer, if any.
    public var reply: ReviewReply?

    public init(item: ItemID, rater: RaterID, stars: Stars, scale: Scale, title: String?, body: String, language: LanguageTag?,
                status: ReviewStatus, createdAtMilliseconds: Int64, updatedAtMilliseconds: Int64, votes: HelpfulVotes,
                reply: ReviewReply? = nil) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.scale = scale
        self.title = title
        self.body = body
        self.language = language
        self.status = status
        self.createdAtMilliseconds = createdAtMilliseconds
        self.updatedAtMilliseconds = updatedAtMilliseconds
        self.votes = votes
        self.reply = reply
    }

    /// How the stars are drawn and announced.
    public var display: Display { Display(stars, on: scale) }
}

/// The item owner's one public answer to a review.
public struct ReviewReply: Sendable, Hashable {
    /// Cleaned by `ReviewTextRule.reply`.
    public let body: String
    /// The replying token's subject; nil where the service runs without tokens.
    public let author: String?
    public let updatedAtMilliseconds: Int64

    public init(body: String, author: String?, updatedAtMilliseconds: Int64) {
        self.body = body
        self.author = author
        self.updatedAtMilliseconds = updatedAtMilliseconds
    }
}

/// Whether a review's text is shown: only a published one is listed and counted in `reviewCount`.
public enum ReviewStatus: String, Sendable, Hashable, CaseIterable {
    case published, pending, rejected

    /// How an item's published reviews change when a review in this status moves to `new`
    /// (nil when it is removed): -1, 0 or 1.
    public func publishedChange(to new: ReviewStatus?) -> Int {
        (new == .published ? 1 : 0) - (self == .published ? 1 : 0)
    }
}

/// A review's helpfulness votes.
public struct HelpfulVotes: Sendable, Hashable {
    public let up: Int
    public let down: Int

    public init(up: Int, down: Int) {
        self.up = up
        self.down = down
    }

    public static let none = HelpfulVotes(up: 0, down: 0)

    /// The counts once one vote moves into `new`, out of `old`, or from one to the other (nil for none).
    public func moving(into new: Bool?, outOf old: Bool?) -> HelpfulVotes {
        HelpfulVotes(up: up + (new == true ? 1 : 0) - (old == true ? 1 : 0),
                     down: down + (new == false ? 1 : 0) - (old == false ? 1 : 0))
    }

    /// The stored sort key of "most helpful".
    public var score: HelpfulScore { HelpfulScore(up: up, down: down) }
}
