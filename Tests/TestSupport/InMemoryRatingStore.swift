public import Dispatch
import Locking
public import RatingsCore

/// The rating rules kept in plain memory: a second, independent model of the store. The API's
/// own tests run over it (no file, no socket), and the store suites hold every engine to the
/// same answers. Aggregates are recomputed from the ratings on every read, so they check, rather
/// than copy, the engines' incremental bookkeeping (review counts and helpful votes likewise).
/// Completions run before the call returns, or on a queue of the test's when it gives one (as a
/// real engine delivers them).
public final class InMemoryRatingStore: ReviewStore {
    private struct Item {
        var scale: Scale
        var isScaleExplicit: Bool
        var ratings: [String: (stars: Int, updatedAt: Int64)] = [:]
        var reviews: [String: StoredReview] = [:]
    }

    /// A review's text and votes; its stars are the rating's.
    private struct StoredReview {
        var title: String?
        var body: String
        var language: LanguageTag?
        var status: ReviewStatus
        var createdAt: Int64
        var updatedAt: Int64
        /// Each voter's vote, true for helpful.
        var votes: [String: Bool] = [:]
        var reply: ReviewReply?
    }

    private struct StorageDown: StorageFailure {
        var description: String { "the in-memory store was told to fail" }
    }

    private let items = Locked<[String: Item]>([:])
    /// Moves with every write of any kind: a coarser version than an engine keeps, never a wrong one.
    private let writes = Locked<UInt64>(0)
    private let failing = Locked(false)
    private let ranking: RankingSettings
    public let cursorSecret: [UInt8]

    private let deliveryQueue: DispatchQueue?

    public init(ranking: RankingSettings = .standard, deliveringOn deliveryQueue: DispatchQueue? = nil) {
        self.ranking = ranking
        self.deliveryQueue = deliveryQueue
        var generator = SystemRandomNumberGenerator()
        cursorSecret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Forgets every item and rating, as a new store would (the API fuzzer empties one store for
    /// each input).
    public func removeAll() { items.withLock { $0.removeAll() } }

    /// Makes every call fail with a `StorageFailure` (or work again), like a database gone away.
    public func setFailing(_ fails: Bool) { failing.withLock { $0 = fails } }

    public func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>) {
        deliver(completion, run { items in Self.summary(item, items[item.rawValue], defaultScale) })
    }

    public func summaries(of list: [ItemID], rater: RaterID?, defaultScale: Scale, completion: @escaping StoreCompletion<[ItemListing]>) {
        deliver(completion, run { items in
            list.map { id in
                let stars = rater.flatMap { items[id.rawValue]?.ratings[$0.rawValue]?.stars }
                return ItemListing(summary: Self.summary(id, items[id.rawValue], defaultScale), myStars: stars.map(Stars.init(stored:)))
            }
        })
    }

    public func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterPage>) {
        deliver(completion, run { items in
            let all = items.compactMap { id, item -> Rating? in
                guard let rating = item.ratings[rater.rawValue] else { return nil }
                return Rating(item: ItemID(stored: id), rater: rater, stars: Stars(stored: rating.stars), scale: item.scale,
                              updatedAtMilliseconds: rating.updatedAt)
            }
            let ordered = all.sorted { a, b in
                a.updatedAtMilliseconds != b.updatedAtMilliseconds ? a.updatedAtMilliseconds > b.updatedAtMilliseconds
                    : a.item.rawValue.utf8.lexicographicallyPrecedes(b.item.rawValue.utf8)
            }.filter { position?.isFollowed(by: $0) ?? true }
            return RaterPage(cutting: ordered, limit: limit)
        })
    }

    public func erase(_ rater: RaterID, completion: @escaping StoreCompletion<Erasure>) {
        deliver(completion, write { items in
            var removed = 0, reviews = 0, votes = 0
            for id in items.keys {
                if items[id]?.ratings.removeValue(forKey: rater.rawValue) != nil { removed += 1 }
                if items[id]?.reviews.removeValue(forKey: rater.rawValue) != nil { reviews += 1 }
                for author in items[id]?.reviews.keys.map({ $0 }) ?? [] where items[id]?.reviews[author]?.votes.removeValue(forKey: rater.rawValue) != nil {
                    votes += 1
                }
            }
            return Erasure(ratings: removed, reviews: reviews, votes: votes)
        })
    }

    public func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, completion: @escaping StoreCompletion<RankingPage>) {
        deliver(completion, run { [ranking] items in
            let ranked = items.compactMap { id, item -> (RankingPosition, ItemSummary)? in
                let summary = Self.summary(ItemID(stored: id), item, item.scale)
                guard summary.count >= max(1, minCount), let place = RankingPosition(summary, ranking) else { return nil }
                return (place, summary)
            }
            let ordered = ranked.sorted { $0.0.isAbove($1.0) }.filter { position?.isAbove($0.0) ?? true }
            return RankingPage(cutting: ordered.map(\.1), limit: limit, ranking: ranking)
        })
    }

    public func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Rating?>) {
        deliver(completion, run { items in
            guard let stored = items[item.rawValue], let rating = stored.ratings[rater.rawValue] else { return nil }
            return Rating(item: item, rater: rater, stars: Stars(stored: rating.stars), scale: stored.scale, updatedAtMilliseconds: rating.updatedAt)
        })
    }

    public func submit(_ request: SubmitRequest, completion: @escaping StoreCompletion<SubmitOutcome>) {
        deliver(completion, write { items in
            var item = items[request.item.rawValue] ?? Item(scale: request.defaultScale, isScaleExplicit: false)
            let stars = try Stars(request.stars, on: item.scale)
            let previous = item.ratings[request.rater.rawValue]
            item.ratings[request.rater.rawValue] = (stars.count, request.nowMilliseconds)
            if let previous, previous.stars != stars.count { item.reviews[request.rater.rawValue]?.updatedAt = request.nowMilliseconds }
            let created = previous == nil
            items[request.item.rawValue] = item
            let rating = Rating(item: request.item, rater: request.rater, stars: stars, scale: item.scale,
                                updatedAtMilliseconds: request.nowMilliseconds)
            return SubmitOutcome(rating: rating, created: created, summary: Self.summary(request.item, item, request.defaultScale))
        })
    }

    public func clear(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        deliver(completion, write { items in
            let cleared = items[request.item.rawValue]?.ratings.removeValue(forKey: request.rater.rawValue) != nil
            let removedReview = items[request.item.rawValue]?.reviews.removeValue(forKey: request.rater.rawValue) != nil
            return ClearOutcome(cleared: cleared, removedReview: removedReview, summary: Self.summary(request.item, items[request.item.rawValue], request.defaultScale))
        })
    }

    public func configure(_ request: ConfigureRequest, completion: @escaping StoreCompletion<ConfigureOutcome>) {
        deliver(completion, write { items in
            var item = items[request.item.rawValue] ?? Item(scale: request.scale, isScaleExplicit: false)
            if !item.ratings.isEmpty && item.scale != request.scale {
                throw RatingError.scaleConflict(current: item.scale, requested: request.scale, ratingCount: item.ratings.count)
            }
            let created = !item.isScaleExplicit
            item.scale = request.scale
            item.isScaleExplicit = true
            items[request.item.rawValue] = item
            return ConfigureOutcome(created: created, summary: Self.summary(request.item, item, request.scale))
        })
    }

    public func checkReady(completion: @escaping StoreCompletion<Void>) {
        deliver(completion, run { _ in () })
    }

    private func deliver<T>(_ completion: @escaping StoreCompletion<T>, _ result: Result<T, any Error>) {
        guard let deliveryQueue else { return completion(result) }
        // Safe: the result is a value made for this completion alone and not touched again here.
        nonisolated(unsafe) let result = result
        deliveryQueue.async { completion(result) }
    }

    /// Runs `body` under the lock, or fails like a storage outage.
    private func run<T>(_ body: (inout [String: Item]) throws -> T) -> Result<T, any Error> {
        if failing.withLock({ $0 }) { return .failure(StorageDown()) }
        return Result { try items.withLock { try body(&$0) } }
    }

    /// Runs a write's `body`, moving every list version.
    private func write<T>(_ body: (inout [String: Item]) throws -> T) -> Result<T, any Error> {
        defer { writes.withLock { $0 &+= 1 } }
        return run(body)
    }

    public func reviewListVersion(of item: ItemID) -> UInt64? { writes.withLock { $0 } }

    private static func summary(_ id: ItemID, _ item: Item?, _ defaultScale: Scale) -> ItemSummary {
        guard let item else { return .empty(id, on: defaultScale) }
        var distribution = [Int](repeating: 0, count: item.scale.maxRating)
        for rating in item.ratings.values { distribution[rating.stars - 1] += 1 }
        return ItemSummary(item: id, scale: item.scale, count: item.ratings.count,
                           sum: item.ratings.values.reduce(0) { $0 + $1.stars }, distribution: PerStar(distribution),
                           reviewCount: item.reviews.values.filter { $0.status == .published }.count)
    }

    // MARK: Reviews

    private static func review(_ item: ItemID, _ rater: RaterID, in items: [String: Item]) -> Review? {
        guard let stored = items[item.rawValue], let review = stored.reviews[rater.rawValue],
              let rating = stored.ratings[rater.rawValue] else { return nil }
        let up = review.votes.values.filter { $0 }.count
        return Review(item: item, rater: rater, stars: Stars(stored: rating.stars), scale: stored.scale, title: review.title,
                      body: review.body, language: review.language, status: review.status, createdAtMilliseconds: review.createdAt,
                      updatedAtMilliseconds: review.updatedAt, votes: HelpfulVotes(up: up, down: review.votes.count - up),
                      reply: review.reply)
    }

    public func review(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Review?>) {
        deliver(completion, run { items in Self.review(item, rater, in: items) })
    }

    public func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>) {
        deliver(completion, write { items in
            var item = items[request.item.rawValue] ?? Item(scale: request.defaultScale, isScaleExplicit: false)
            let stars = try Stars(request.stars, on: item.scale)
            item.ratings[request.rater.rawValue] = (stars.count, request.nowMilliseconds)
            let old = item.reviews[request.rater.rawValue]
            item.reviews[request.rater.rawValue] = StoredReview(
                title: request.title, body: request.body, language: request.language, status: old?.status ?? .published,
                createdAt: old?.createdAt ?? request.nowMilliseconds, updatedAt: request.nowMilliseconds, votes: old?.votes ?? [:],
                reply: old?.reply)
            items[request.item.rawValue] = item
            guard let review = Self.review(request.item, request.rater, in: items) else { throw StorageDown() }
            return ReviewWriteOutcome(review: review, created: old == nil, summary: Self.summary(request.item, item, request.defaultScale))
        })
    }

    public func removeReview(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        deliver(completion, write { items in
            let cleared = items[request.item.rawValue]?.reviews.removeValue(forKey: request.rater.rawValue) != nil
            return ClearOutcome(cleared: cleared, removedReview: cleared, summary: Self.summary(request.item, items[request.item.rawValue], request.defaultScale))
        })
    }

    public func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter, after position: ReviewPosition?, limit: Int,
                        defaultScale: Scale, completion: @escaping StoreCompletion<ItemReviewPage>) {
        deliver(completion, run { items in
            let all = (items[item.rawValue]?.reviews.keys.compactMap { Self.review(item, RaterID(stored: $0), in: items) }) ?? []
            let start = position ?? .start(sort)
            let ordered = all.filter { $0.status == .published && filter.keeps($0) && start.isFollowed(by: $0, in: sort) }
                .sorted { ReviewPosition($0, sort).isFollowed(by: $1, in: sort) }
            return ItemReviewPage(cutting: ordered.map { ($0, ReviewPosition($0, sort)) }, limit: limit)
        })
    }

    public func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterReviewPage>) {
        deliver(completion, run { items in
            let all = items.keys.compactMap { Self.review(ItemID(stored: $0), rater, in: items) }
            let ordered = all.sorted { RaterPagePosition($0).isFollowed(by: $1) }.filter { position?.isFollowed(by: $0) ?? true }
            return RaterReviewPage(cutting: ordered.map { ($0, RaterPagePosition($0)) }, limit: limit)
        })
    }

    public func reply(_ request: ReplyRequest, completion: @escaping StoreCompletion<ReplyOutcome>) {
        deliver(completion, write { items in
            _ = try request.target(Self.review(request.item, request.rater, in: items))
            let old = items[request.item.rawValue]?.reviews[request.rater.rawValue]?.reply
            items[request.item.rawValue]?.reviews[request.rater.rawValue]?.reply =
                request.body.map { ReviewReply(body: $0, author: request.author, updatedAtMilliseconds: request.nowMilliseconds) }
            guard let review = Self.review(request.item, request.rater, in: items) else { throw StorageDown() }
            return ReplyOutcome(created: old == nil && request.body != nil, review: review)
        })
    }

    public func vote(_ request: VoteRequest, completion: @escaping StoreCompletion<VoteOutcome>) {
        deliver(completion, write { items in
            _ = try request.target(Self.review(request.item, request.rater, in: items))
            let old = items[request.item.rawValue]?.reviews[request.rater.rawValue]?.votes.updateValue(request.helpful ?? false, forKey: request.voter.rawValue)
            if request.helpful == nil { items[request.item.rawValue]?.reviews[request.rater.rawValue]?.votes.removeValue(forKey: request.voter.rawValue) }
            guard let review = Self.review(request.item, request.rater, in: items) else { throw StorageDown() }
            return VoteOutcome(created: old == nil && request.helpful != nil, review: review)
        })
    }
}
