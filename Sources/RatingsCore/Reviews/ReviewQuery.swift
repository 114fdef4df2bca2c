/// The orders a review list comes in. Every order breaks ties by `createdAt` descending, then
/// rater id ascending.
public enum ReviewSort: String, Sendable, Hashable, CaseIterable {
    /// `createdAt` descending.
    case newest
    /// The Wilson lower bound of the helpful share, descending.
    case helpful
    /// Stars descending.
    case highest
    /// Stars ascending.
    case lowest

    /// The leading sort key of `review` in this order (0 for `newest`, which has none).
    public func key(of review: Review) -> Int64 {
        switch self {
        case .newest: 0
        case .helpful: review.votes.score.key
        case .highest, .lowest: Int64(review.stars.count)
        }
    }

    /// Whether a larger leading key comes first.
    public var isKeyDescending: Bool { self != .lowest }
}

/// Which of an item's published reviews a list keeps.
public struct ReviewFilter: Sendable, Hashable {
    /// The star counts kept; empty keeps every one.
    public let stars: Set<Int>
    /// A language prefix in lowercase (`en` keeps `en` and `en-GB`); nil keeps every language,
    /// and reviews without one.
    public let language: String?

    public init(stars: Set<Int>, language: LanguageTag?) {
        self.stars = stars
        self.language = language?.description.lowercased()
    }

    public static let none = ReviewFilter(stars: [], language: nil)

    /// The kept star counts as a bit mask (bit n for n stars), all of 1...10 when none is named:
    /// how the engines' statements take the filter as one parameter.
    public var starMask: Int {
        stars.isEmpty ? 0b111_1111_1110 : stars.reduce(0) { $0 | (1 << $1) }
    }

    /// Whether `review` passes.
    public func keeps(_ review: Review) -> Bool {
        (starMask >> review.stars.count) & 1 == 1 && (language.map { review.language?.matches(prefix: $0) ?? false } ?? true)
    }

    /// The filter written so that equal filters read alike (`stars=5,4` and `stars=4&stars=5`),
    /// for binding a cursor to it.
    public var canonicalText: String {
        "stars=" + stars.sorted().map(String.init).joined(separator: ",") + "&language=" + (language ?? "")
    }
}

/// Where a page of an item's reviews stopped: the last review's leading key, creation time and
/// rater. The next page starts strictly after it in the list's order.
public struct ReviewPosition: Sendable, Hashable {
    public let key: Int64
    public let createdAtMilliseconds: Int64
    public let rater: RaterID

    public init(key: Int64, createdAtMilliseconds: Int64, rater: RaterID) {
        self.key = key
        self.createdAtMilliseconds = createdAtMilliseconds
        self.rater = rater
    }

    /// The position of `review` in `sort`, its key computed from the review (stores read the
    /// key they sorted by instead, so that a cursor follows the stored order).
    public init(_ review: Review, _ sort: ReviewSort) {
        self.init(key: sort.key(of: review), createdAtMilliseconds: review.createdAtMilliseconds, rater: review.rater)
    }

    /// The position before the first review of `sort`: every review follows it.
    public static func start(_ sort: ReviewSort) -> ReviewPosition {
        ReviewPosition(key: sort.isKeyDescending ? .max : .min, createdAtMilliseconds: .max, rater: RaterID(stored: ""))
    }

    /// Whether `review` comes after this position in `sort`.
    public func isFollowed(by review: Review, in sort: ReviewSort) -> Bool {
        let other = sort.key(of: review)
        if other != key { return sort.isKeyDescending ? other < key : other > key }
        if review.createdAtMilliseconds != createdAtMilliseconds { return review.createdAtMilliseconds < createdAtMilliseconds }
        return rater.rawValue.utf8.lexicographicallyPrecedes(review.rater.rawValue.utf8)
    }
}

/// A page of an item's reviews, or of a rater's.
public struct ReviewPage<Position: Sendable & Hashable>: Sendable, Hashable {
    public let reviews: [Review]
    /// Where the next page starts; nil on the last page.
    public let next: Position?

    public init(reviews: [Review], next: Position?) {
        self.reviews = reviews
        self.next = next
    }

    /// The first `limit` of `fetched`, reviews in page order with their positions, of which a
    /// store read up to `limit + 1`: the one past the page is how it knows that another page follows.
    public init(cutting fetched: [(review: Review, position: Position)], limit: Int) {
        let (page, next) = cut(fetched, limit: limit) { $0.position }
        self.init(reviews: page.map(\.review), next: next)
    }
}

/// A page of an item's reviews.
public typealias ItemReviewPage = ReviewPage<ReviewPosition>
/// A page of a rater's reviews, by `updatedAt` descending, then item id.
public typealias RaterReviewPage = ReviewPage<RaterPagePosition>

extension RaterPagePosition {
    /// The position of `review` in a rater's reviews.
    public init(_ review: Review) {
        self.init(updatedAtMilliseconds: review.updatedAtMilliseconds, item: review.item)
    }

    /// Whether `review` comes after this position in a rater's reviews.
    public func isFollowed(by review: Review) -> Bool {
        isFollowed(by: RaterPagePosition(review))
    }
}
