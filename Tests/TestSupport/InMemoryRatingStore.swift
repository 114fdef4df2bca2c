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

    public init() {}

    /// Makes every call fail with a `StorageFailure` (or work again), like a database gone away.
    public func setFailing(_ fails: Bool) { failing.withLock { $0 = fails } }

    public func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>) {
        completion(run { items in Self.summary(item, items[item.rawValue], defaultScale) })
    }

    public func summaries(of list: [ItemID], defaultScale: Scale, completion: @escaping StoreCompletion<[ItemSummary]>) {
        completion(run { items in list.map { Self.summary($0, items[$0.rawValue], defaultScale) } })
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
                           sum: item.ratings.values.reduce(0) { $0 + $1.stars }, distribution: distribution)
    }
}
