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
        /// Each author's review history, kept when the review is removed.
        var history: [String: [ModerationEntry]] = [:]
    }

    /// A flag as placed: the decisions its review had had then says which round it counts in.
    private struct StoredFlag {
        var reason: FlagReason
        var note: String?
        let afterDecisions: Int
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
        var statusSince: Int64
        var decisions = 0
        var flags: [String: StoredFlag] = [:]
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
            var removed = 0, reviews = 0, votes = 0, flags = 0
            for id in items.keys {
                if items[id]?.ratings.removeValue(forKey: rater.rawValue) != nil { removed += 1 }
                if items[id]?.reviews.removeValue(forKey: rater.rawValue) != nil { reviews += 1 }
                items[id]?.history[rater.rawValue] = nil
                for author in items[id]?.reviews.keys.map({ $0 }) ?? [] {
                    if items[id]?.reviews[author]?.votes.removeValue(forKey: rater.rawValue) != nil { votes += 1 }
                    if items[id]?.reviews[author]?.flags.removeValue(forKey: rater.rawValue) != nil { flags += 1 }
                }
            }
            return Erasure(ratings: removed, reviews: reviews, votes: votes, flags: flags)
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
            let (status, change) = request.status(replacing: Self.review(request.item, request.rater, in: items))
            var stored = old ?? StoredReview(title: nil, body: "", language: nil, status: status, createdAt: request.nowMilliseconds,
                                             updatedAt: request.nowMilliseconds, statusSince: request.nowMilliseconds)
            (stored.title, stored.body, stored.language, stored.updatedAt) = (request.title, request.body, request.language, request.nowMilliseconds)
            if stored.status != status { (stored.status, stored.statusSince) = (status, request.nowMilliseconds) }
            item.reviews[request.rater.rawValue] = stored
            if let change { item.history[request.rater.rawValue, default: []].append(change) }
            items[request.item.rawValue] = item
            guard let review = Self.review(request.item, request.rater, in: items) else { throw StorageDown() }
            return ReviewWriteOutcome(review: review, created: old == nil, summary: Self.summary(request.item, item, request.defaultScale),
                                      change: change)
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

    public func flag(_ request: FlagRequest, completion: @escaping StoreCompletion<FlagOutcome>) {
        deliver(completion, write { items in
            let (item, rater, flagger) = (request.item.rawValue, request.rater.rawValue, request.flagger.rawValue)
            let hadFlag = items[item]?.reviews[rater]?.flags[flagger] != nil
            _ = try request.target(Self.review(request.item, request.rater, in: items), flaggerHasFlag: hadFlag)
            guard var stored = items[item]?.reviews[rater] else { throw StorageDown() }
            if let reason = request.reason {
                let round = stored.flags[flagger]?.afterDecisions ?? stored.decisions
                stored.flags[flagger] = StoredFlag(reason: reason, note: request.note, afterDecisions: round)
            } else {
                stored.flags[flagger] = nil
            }
            let round = stored.flags.values.filter { $0.afterDecisions == stored.decisions }.count
            let change = request.reason == nil ? nil
                : request.policy.flagsCrossing(stored.status, flagsThisRound: round, at: request.nowMilliseconds)
            if let change {
                (stored.status, stored.statusSince) = (change.status, change.atMilliseconds)
                items[item]?.history[rater, default: []].append(change)
            }
            items[item]?.reviews[rater] = stored
            guard let review = Self.review(request.item, request.rater, in: items) else { throw StorageDown() }
            return FlagOutcome(created: !hadFlag && request.reason != nil, review: review, change: change)
        })
    }

    public func moderate(_ request: ModerationRequest, completion: @escaping StoreCompletion<ModerationOutcome>) {
        deliver(completion, write { items in
            let (item, rater) = (request.item.rawValue, request.rater.rawValue)
            guard var stored = items[item]?.reviews[rater] else { throw ReviewError.reviewNotFound(item: request.item, rater: request.rater) }
            let entry = request.entry(from: stored.status)
            if stored.status != entry.status { (stored.status, stored.statusSince) = (entry.status, entry.atMilliseconds) }
            stored.decisions += 1
            items[item]?.reviews[rater] = stored
            items[item]?.history[rater, default: []].append(entry)
            guard let review = Self.review(request.item, request.rater, in: items),
                  let record = Self.record(request.item, request.rater, in: items) else { throw StorageDown() }
            return ModerationOutcome(record: record, review: review)
        })
    }

    public func moderation(of item: ItemID, by rater: RaterID, completion: @escaping StoreCompletion<ModerationRecord?>) {
        deliver(completion, run { items in Self.record(item, rater, in: items) })
    }

    public func moderationQueue(after position: QueuePosition?, limit: Int, completion: @escaping StoreCompletion<ModerationQueuePage>) {
        deliver(completion, run { items in
            let queued = items.flatMap { id, item in
                item.reviews.compactMap { rater, stored -> QueuedReview? in
                    guard stored.status == .pending, let review = Self.review(ItemID(stored: id), RaterID(stored: rater), in: items) else { return nil }
                    return QueuedReview(review: review, flags: FlagCounts(stored.flags.values.map { ($0.reason.rawValue, 1) }),
                                        pendingSinceMilliseconds: stored.statusSince)
                }
            }
            let ordered = queued.sorted { $0.position.isFollowed(by: $1.position) }
                .filter { position?.isFollowed(by: $0.position) ?? true }
            return ModerationQueuePage(cutting: ordered, limit: limit)
        })
    }

    public func pendingReviewCount(completion: @escaping StoreCompletion<Int>) {
        deliver(completion, run { items in items.values.reduce(0) { $0 + $1.reviews.values.filter { $0.status == .pending }.count } })
    }

    private static func record(_ item: ItemID, _ rater: RaterID, in items: [String: Item]) -> ModerationRecord? {
        guard let stored = items[item.rawValue]?.reviews[rater.rawValue] else { return nil }
        return ModerationRecord(status: stored.status, flags: FlagCounts(stored.flags.values.map { ($0.reason.rawValue, 1) }),
                                history: items[item.rawValue]?.history[rater.rawValue] ?? [])
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

    // MARK: The outbox: rows a test adds (`appendOutbox`); this model records no events of its own,
    // so the event contract tests run on the durable engines.

    private struct OutboxRow {
        let delivery: OutboxDelivery
        var state = "pending"
        var due: Int64
        var heldUntil: Int64 = 0
        var finished: Int64?
        var lastError: DeliveryError?
    }

    private let outbox = Locked<[OutboxRow]>([])

    /// Adds rows to the outbox, as a durable engine's write would.
    public func appendOutbox(_ entries: [OutboxEntry]) {
        outbox.withLock { rows in
            for entry in entries {
                rows.append(OutboxRow(delivery: OutboxDelivery(id: (rows.last?.delivery.id ?? 0) + 1, entry: entry, attempts: 0, firstAttemptMilliseconds: nil),
                                      due: entry.createdAtMilliseconds))
            }
        }
    }

    public func claimDeliveries(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64,
                                completion: @escaping StoreCompletion<[OutboxDelivery]>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                let due = rows.indices.filter {
                    rows[$0].state == "pending" && rows[$0].due <= nowMilliseconds && rows[$0].heldUntil <= nowMilliseconds
                        && rows[$0].delivery.entry.endpoint == endpoint
                }
                    .sorted { rows[$0].due < rows[$1].due }.prefix(limit)
                return due.map { index in
                    rows[index].heldUntil = nowMilliseconds + leaseMilliseconds
                    return rows[index].delivery
                }
            }
        })
    }

    public func finishDelivery(_ result: DeliveryResult, completion: @escaping StoreCompletion<Void>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                guard let index = rows.firstIndex(where: { $0.delivery.id == result.delivery }) else { return }
                let old = rows[index].delivery
                let (state, due, finished) = OutboxQueries.finishParameters(result)
                rows[index] = OutboxRow(delivery: OutboxDelivery(id: old.id, entry: old.entry, attempts: old.attempts + 1,
                                                                 firstAttemptMilliseconds: old.firstAttemptMilliseconds ?? result.firstAttemptMilliseconds),
                                        state: state, due: due, finished: finished,
                                        lastError: result.outcome == .delivered ? rows[index].lastError
                                            : DeliveryError(atMilliseconds: result.attemptedAtMilliseconds, status: result.status, error: result.error))
            }
        })
    }

    public func abandonDeliveries(for endpoint: String, nowMilliseconds: Int64, reason: String, completion: @escaping StoreCompletion<Int>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                var count = 0
                for index in rows.indices where rows[index].state == "pending" && rows[index].delivery.entry.endpoint == endpoint {
                    rows[index].state = "failed"
                    rows[index].finished = nowMilliseconds
                    rows[index].lastError = DeliveryError(atMilliseconds: nowMilliseconds, status: nil, error: reason)
                    count += 1
                }
                return count
            }
        })
    }

    public func pruneDeliveries(finishedBefore beforeMilliseconds: Int64, completion: @escaping StoreCompletion<Int>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                let before = rows.count
                rows.removeAll { $0.state != "pending" && ($0.finished ?? .max) < beforeMilliseconds }
                return before - rows.count
            }
        })
    }

    public func deliveryTotals(completion: @escaping StoreCompletion<[String: DeliveryTotals]>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                var totals: [String: DeliveryTotals] = [:]
                for row in rows {
                    totals[row.delivery.entry.endpoint, default: DeliveryTotals()].add(1, in: row.state)
                    if let error = row.lastError, error.atMilliseconds >= totals[row.delivery.entry.endpoint]?.lastError?.atMilliseconds ?? .min {
                        totals[row.delivery.entry.endpoint]?.lastError = error
                    }
                }
                return totals
            }
        })
    }

    public func pendingDeliveries(completion: @escaping StoreCompletion<[String: Int]>) {
        deliver(completion, run { _ in
            outbox.withLock { rows in
                rows.filter { $0.state == "pending" }.reduce(into: [String: Int]()) { $0[$1.delivery.entry.endpoint, default: 0] += 1 }
            }
        })
    }
}
