/// An item's summary on a list screen, with the asking rater's own stars when a rater was named.
public struct ItemListing: Sendable, Hashable {
    public let summary: ItemSummary
    /// The named rater's stars on this item; nil when they have none (or no rater was named).
    public let myStars: Stars?

    public init(summary: ItemSummary, myStars: Stars?) {
        self.summary = summary
        self.myStars = myStars
    }
}

/// Where a page of one rater's ratings stopped: the last rating's time and item. The next page
/// starts strictly after it in the order `updatedAt` descending, then item id ascending.
public struct RaterPagePosition: Sendable, Hashable {
    public let updatedAtMilliseconds: Int64
    public let item: ItemID

    public init(updatedAtMilliseconds: Int64, item: ItemID) {
        self.updatedAtMilliseconds = updatedAtMilliseconds
        self.item = item
    }

    /// Whether `rating` comes after this position in the listing's order.
    public func isFollowed(by rating: Rating) -> Bool {
        isFollowed(by: RaterPagePosition(updatedAtMilliseconds: rating.updatedAtMilliseconds, item: rating.item))
    }

    /// Whether `other` comes after this position in the listing's order.
    public func isFollowed(by other: RaterPagePosition) -> Bool {
        other.updatedAtMilliseconds < updatedAtMilliseconds
            || (other.updatedAtMilliseconds == updatedAtMilliseconds && item.rawValue.utf8.lexicographicallyPrecedes(other.item.rawValue.utf8))
    }
}

/// One page of a rater's ratings, newest first.
public struct RaterPage: Sendable, Hashable {
    public let ratings: [Rating]
    /// Where the next page starts; nil on the last page.
    public let next: RaterPagePosition?

    public init(ratings: [Rating], next: RaterPagePosition?) {
        self.ratings = ratings
        self.next = next
    }

    /// The first `limit` of `fetched`, ratings in page order of which a store read up to
    /// `limit + 1`: the one past the page is how it knows that another page follows.
    public init(cutting fetched: [Rating], limit: Int) {
        let (page, next) = cut(fetched, limit: limit) { RaterPagePosition(updatedAtMilliseconds: $0.updatedAtMilliseconds, item: $0.item) }
        self.init(ratings: page, next: next)
    }
}

/// Where a page of the ranking stopped: the last item's score key, count and id. The next page
/// starts strictly after it in the order score descending, count descending, item id ascending.
public struct RankingPosition: Sendable, Hashable {
    public let scoreHigh: Int
    public let scoreLow: Int
    public let count: Int
    public let item: ItemID

    public init(scoreHigh: Int, scoreLow: Int, count: Int, item: ItemID) {
        self.scoreHigh = scoreHigh
        self.scoreLow = scoreLow
        self.count = count
        self.item = item
    }

    /// The position of `summary` under `settings`, or nil when it has no ratings.
    public init?(_ summary: ItemSummary, _ settings: RankingSettings) {
        guard let score = BayesianScore(summary, settings) else { return nil }
        self.init(scoreHigh: score.key.high, scoreLow: score.key.low, count: summary.count, item: summary.item)
    }

    /// Whether `other` is ranked below this position (comes after it).
    public func isAbove(_ other: RankingPosition) -> Bool {
        if scoreHigh != other.scoreHigh { return scoreHigh > other.scoreHigh }
        if scoreLow != other.scoreLow { return scoreLow > other.scoreLow }
        if count != other.count { return count > other.count }
        return item.rawValue.utf8.lexicographicallyPrecedes(other.item.rawValue.utf8)
    }
}

/// One page of the ranking, best first.
public struct RankingPage: Sendable, Hashable {
    public let items: [ItemSummary]
    /// Where the next page starts; nil on the last page.
    public let next: RankingPosition?

    public init(items: [ItemSummary], next: RankingPosition?) {
        self.items = items
        self.next = next
    }

    /// The first `limit` of `fetched`, summaries in ranking order of which a store read up to
    /// `limit + 1`: the one past the page is how it knows that another page follows.
    public init(cutting fetched: [ItemSummary], limit: Int, ranking: RankingSettings) {
        let (page, next) = cut(fetched, limit: limit) { RankingPosition($0, ranking) }
        self.init(items: page, next: next)
    }
}

/// The first `limit` of `fetched`, entries in page order of which a store read up to `limit + 1`
/// (the one past the page is how it knows that another page follows), and the position of the
/// page's last entry when one does: where the next page starts.
func cut<Entry, Position>(_ fetched: [Entry], limit: Int, position: (Entry) -> Position?) -> (page: [Entry], next: Position?) {
    let page = Array(fetched.prefix(limit))
    return (page, fetched.count > limit ? page.last.flatMap(position) : nil)
}
