public import RatingsCore

/// Awaitable forms of the store's callbacks, for tests.
extension RatingStore {
    public func summary(of item: ItemID, defaultScale: Scale) async throws -> ItemSummary {
        try await withCheckedThrowingContinuation { continuation in summary(of: item, defaultScale: defaultScale) { continuation.resume(with: $0) } }
    }

    public func summaries(of items: [ItemID], defaultScale: Scale) async throws -> [ItemSummary] {
        try await listings(of: items, rater: nil, defaultScale: defaultScale).map(\.summary)
    }

    public func listings(of items: [ItemID], rater: RaterID?, defaultScale: Scale) async throws -> [ItemListing] {
        try await withCheckedThrowingContinuation { continuation in
            summaries(of: items, rater: rater, defaultScale: defaultScale) { continuation.resume(with: $0) }
        }
    }

    public func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale) async throws -> RaterPage {
        try await withCheckedThrowingContinuation { continuation in
            ratings(by: rater, after: position, limit: limit, defaultScale: defaultScale) { continuation.resume(with: $0) }
        }
    }

    public func erase(_ rater: RaterID) async throws -> Erasure {
        try await withCheckedThrowingContinuation { continuation in erase(rater) { continuation.resume(with: $0) } }
    }

    public func topRanked(after position: RankingPosition?, limit: Int, minCount: Int = 1) async throws -> RankingPage {
        try await withCheckedThrowingContinuation { continuation in
            topRanked(after: position, limit: limit, minCount: minCount) { continuation.resume(with: $0) }
        }
    }

    public func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale) async throws -> Rating? {
        try await withCheckedThrowingContinuation { continuation in
            rating(of: item, by: rater, defaultScale: defaultScale) { continuation.resume(with: $0) }
        }
    }

    public func submit(_ request: SubmitRequest) async throws -> SubmitOutcome {
        try await withCheckedThrowingContinuation { continuation in submit(request) { continuation.resume(with: $0) } }
    }

    public func clear(_ request: ClearRequest) async throws -> ClearOutcome {
        try await withCheckedThrowingContinuation { continuation in clear(request) { continuation.resume(with: $0) } }
    }

    public func configure(_ request: ConfigureRequest) async throws -> ConfigureOutcome {
        try await withCheckedThrowingContinuation { continuation in configure(request) { continuation.resume(with: $0) } }
    }

    public func checkReady() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            checkReady { continuation.resume(with: $0) }
        }
    }
}

/// Awaitable forms of the review store's callbacks, for tests.
extension ReviewStore {
    public func review(of item: ItemID, by rater: RaterID) async throws -> Review? {
        try await withCheckedThrowingContinuation { continuation in
            review(of: item, by: rater, defaultScale: .standard) { continuation.resume(with: $0) }
        }
    }

    public func writeReview(_ request: ReviewWriteRequest) async throws -> ReviewWriteOutcome {
        try await withCheckedThrowingContinuation { continuation in writeReview(request) { continuation.resume(with: $0) } }
    }

    public func removeReview(_ request: ClearRequest) async throws -> ClearOutcome {
        try await withCheckedThrowingContinuation { continuation in removeReview(request) { continuation.resume(with: $0) } }
    }

    public func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter = .none, after position: ReviewPosition? = nil,
                        limit: Int) async throws -> ItemReviewPage {
        try await withCheckedThrowingContinuation { continuation in
            reviews(of: item, sort: sort, filter: filter, after: position, limit: limit, defaultScale: .standard) { continuation.resume(with: $0) }
        }
    }

    public func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int) async throws -> RaterReviewPage {
        try await withCheckedThrowingContinuation { continuation in
            reviews(by: rater, after: position, limit: limit, defaultScale: .standard) { continuation.resume(with: $0) }
        }
    }

    public func reply(_ request: ReplyRequest) async throws -> ReplyOutcome {
        try await withCheckedThrowingContinuation { continuation in reply(request) { continuation.resume(with: $0) } }
    }

    public func vote(_ request: VoteRequest) async throws -> VoteOutcome {
        try await withCheckedThrowingContinuation { continuation in vote(request) { continuation.resume(with: $0) } }
    }

    public func flag(_ request: FlagRequest) async throws -> FlagOutcome {
        try await withCheckedThrowingContinuation { continuation in flag(request) { continuation.resume(with: $0) } }
    }

    public func moderate(_ request: ModerationRequest) async throws -> ModerationOutcome {
        try await withCheckedThrowingContinuation { continuation in moderate(request) { continuation.resume(with: $0) } }
    }

    public func moderation(of item: ItemID, by rater: RaterID) async throws -> ModerationRecord? {
        try await withCheckedThrowingContinuation { continuation in moderation(of: item, by: rater) { continuation.resume(with: $0) } }
    }

    public func moderationQueue(after position: QueuePosition?, limit: Int) async throws -> ModerationQueuePage {
        try await withCheckedThrowingContinuation { continuation in
            moderationQueue(after: position, limit: limit) { continuation.resume(with: $0) }
        }
    }

    public func pendingReviewCount() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in pendingReviewCount { continuation.resume(with: $0) } }
    }
}

/// Awaitable forms of the outbox's callbacks, for tests.
extension OutboxStore {
    public func claimDeliveries(for endpoint: String, now: Int64, limit: Int, lease: Int64 = 60_000) async throws -> [OutboxDelivery] {
        try await withCheckedThrowingContinuation { continuation in
            claimDeliveries(for: endpoint, nowMilliseconds: now, limit: limit, leaseMilliseconds: lease) { continuation.resume(with: $0) }
        }
    }

    public func finishDelivery(_ result: DeliveryResult) async throws {
        try await withCheckedThrowingContinuation { continuation in finishDelivery(result) { continuation.resume(with: $0) } }
    }

    public func pruneDeliveries(finishedBefore milliseconds: Int64) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in pruneDeliveries(finishedBefore: milliseconds) { continuation.resume(with: $0) } }
    }

    public func deliveryTotals() async throws -> [String: DeliveryTotals] {
        try await withCheckedThrowingContinuation { continuation in deliveryTotals { continuation.resume(with: $0) } }
    }

    public func pendingDeliveries() async throws -> [String: Int] {
        try await withCheckedThrowingContinuation { continuation in pendingDeliveries { continuation.resume(with: $0) } }
    }
}
