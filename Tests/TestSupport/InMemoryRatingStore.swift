import Locking
public import RatingsCore

/// The rating rules kept in plain memory: a second, independent model of the store. The API's
/// own tests run over it (no file, no socket), and the store suites hold every engine to the
/// same answers. Aggregates are recomputed from the ratings on every read, so they check, rather
/// than copy, the engines' incremental bookkeeping. Completions run before the call returns.
public final class InMemoryRatingStore: RatingStore {
    private struct Item {
        var scale: Scale
        var isScaleExplicit: Bool
        var ratings: [String: (stars: Int, updatedAt: Int64)] = [:]
    }

    private struct StorageDown: StorageFailure {
        var description: String { "the in-memory store was told to fail" }
    }

    private let items = Locked<[String: Item]>([:])
    private let failing = Locked(false)
    private let ranking: RankingSettings
    public let cursorSecret: [UInt8]

    public init(ranking: RankingSettings = .standard) {
        self.ranking = ranking
        var generator = SystemRandomNumberGenerator()
        cursorSecret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Forgets every item and rating, as a new store would (the API fuzzer empties one store for
    /// each input).
    public func removeAll() { items.withLock { $0.removeAll() } }

    /// Makes every call fail with a `StorageFailure` (or work again), like a database gone away.
    public func setFailing(_ fails: Bool) { failing.withLock { $0 = fails } }

    public func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>) {
        completion(run { items in Self.summary(item, items[item.rawValue], defaultScale) })
    }

    public func summaries(of list: [ItemID], rater: RaterID?, defaultScale: Scale, completion: @escaping StoreCompletion<[ItemListing]>) {
        completion(run { items in
            list.map { id in
                let stars = rater.flatMap { items[id.rawValue]?.ratings[$0.rawValue]?.stars }
                return ItemListing(summary: Self.summary(id, items[id.rawValue], defaultScale), myStars: stars.map(Stars.init(stored:)))
            }
        })
    }

    public func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterPage>) {
        completion(run { items in
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

    public func erase(_ rater: RaterID, completion: @escaping StoreCompletion<Int>) {
        completion(run { items in
            var removed = 0
            for id in items.keys where items[id]?.ratings.removeValue(forKey: rater.rawValue) != nil { removed += 1 }
            return removed
        })
    }

    public func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, completion: @escaping StoreCompletion<RankingPage>) {
        completion(run { [ranking] items in
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
        completion(run { items in
            guard let stored = items[item.rawValue], let rating = stored.ratings[rater.rawValue] else { return nil }
            return Rating(item: item, rater: rater, stars: Stars(stored: rating.stars), scale: stored.scale, updatedAtMilliseconds: rating.updatedAt)
        })
    }

    public func submit(_ request: SubmitRequest, completion: @escaping StoreCompletion<SubmitOutcome>) {
        completion(run { items in
            var item = items[request.item.rawValue] ?? Item(scale: request.defaultScale, isScaleExplicit: false)
            let stars = try Stars(request.stars, on: item.scale)
            let created = item.ratings[request.rater.rawValue] == nil
            item.ratings[request.rater.rawValue] = (stars.count, request.nowMilliseconds)
            items[request.item.rawValue] = item
            let rating = Rating(item: request.item, rater: request.rater, stars: stars, scale: item.scale,
                                updatedAtMilliseconds: request.nowMilliseconds)
            return SubmitOutcome(rating: rating, created: created, summary: Self.summary(request.item, item, request.defaultScale))
        })
    }

    public func clear(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        completion(run { items in
            let cleared = items[request.item.rawValue]?.ratings.removeValue(forKey: request.rater.rawValue) != nil
            return ClearOutcome(cleared: cleared, summary: Self.summary(request.item, items[request.item.rawValue], request.defaultScale))
        })
    }

    public func configure(_ request: ConfigureRequest, completion: @escaping StoreCompletion<ConfigureOutcome>) {
        completion(run { items in
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
        completion(run { _ in () })
    }

    /// Runs `body` under the lock, or fails like a storage outage.
    private func run<T>(_ body: (inout [String: Item]) throws -> T) -> Result<T, any Error> {
        if failing.withLock({ $0 }) { return .failure(StorageDown()) }
        return Result { try items.withLock { try body(&$0) } }
    }

    private static func summary(_ id: ItemID, _ item: Item?, _ defaultScale: Scale) -> ItemSummary {
        guard let item else { return .empty(id, on: defaultScale) }
        var distribution = [Int](repeating: 0, count: item.scale.maxRating)
        for rating in item.ratings.values { distribution[rating.stars - 1] += 1 }
        return ItemSummary(item: id, scale: item.scale, count: item.ratings.count,
                           sum: item.ratings.values.reduce(0) { $0 + $1.stars }, distribution: PerStar(distribution))
    }
}
