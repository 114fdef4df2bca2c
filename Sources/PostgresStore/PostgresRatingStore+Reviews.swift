public import RatingsCore

/// Reviews and votes on PostgreSQL: every review write locks the item's row first, as rating
/// writes do (and so reads the review's text and status as the last write left them), and a
/// vote locks the review's row, so concurrent writes in any process queue.
extension PostgresRatingStore: ReviewStore {
    public func review(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Review?>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectReview, [item.rawValue, rater.rawValue], deadline: deadline)
            return rows.rowCount > 0 ? rows.review(0) : nil
        }, completion: completion)
    }

    public func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter, after position: ReviewPosition?, limit: Int,
                        defaultScale: Scale, completion: @escaping StoreCompletion<ItemReviewPage>) {
        let from = position ?? .start(sort)
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectReviewPages[sort] ?? "", [
                item.rawValue, String(from.key), String(from.createdAtMilliseconds), from.rater.rawValue, String(filter.starMask),
                filter.language ?? "", String(limit + 1),
            ], deadline: deadline)
            let fetched = (0..<rows.rowCount).map { row in
                let review = rows.review(row, scaleColumn: ReviewQueries.pageScaleColumn)
                let key = Int64(rows.int(row, ReviewQueries.sortKeyColumn))
                return (review: review, position: ReviewPosition(key: key, createdAtMilliseconds: review.createdAtMilliseconds, rater: review.rater))
            }
            return ItemReviewPage(cutting: fetched, limit: limit)
        }, completion: completion)
    }

    public func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterReviewPage>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectRaterReviewPage, [
                rater.rawValue, String(position?.updatedAtMilliseconds ?? .max), position?.item.rawValue ?? "", String(limit + 1),
            ], deadline: deadline)
            return RaterReviewPage(cutting: rows.reviews.map { ($0, RaterPagePosition($0)) }, limit: limit)
        }, completion: completion)
    }

    public func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>) {
        write(completion) { connection, deadline in
            let item = try SummaryRow(connection.query(PostgresSQL.lockItem, [request.item.rawValue, String(request.defaultScale.maxRating)],
                                                       deadline: deadline))
            let stars = try Stars(request.stars, on: item.scale)
            let previous = try Self.stars(request.item, request.rater, connection, deadline)
            let key = [request.item.rawValue, request.rater.rawValue]
            let found = try connection.query(PostgresSQL.selectReview, key, deadline: deadline)
            let existing = found.rowCount > 0 ? found.review(0) : nil
            let (status, change) = request.status(replacing: existing)
            try connection.query(PostgresSQL.upsertRating, [request.item.rawValue, request.rater.rawValue, String(stars.count),
                                                            String(request.nowMilliseconds)], deadline: deadline)
            let stored = try connection.query(PostgresSQL.upsertReview, key + [
                String(stars.count), request.title, request.body, request.language?.description, status.rawValue,
                String(request.nowMilliseconds),
            ], deadline: deadline).review(0)
            if let change { try Self.append(change, key, connection, deadline) }
            let published = existing.map { $0.status.publishedChange(to: status) } ?? (status == .published ? 1 : 0)
            let types = EventRules.writeReview(previousStars: previous, newStars: stars.count, replacing: existing, text: request.text,
                                               change: change)
            let summary = try self.move(request.item, from: item, into: stars.count, outOf: previous, reviews: published,
                                        recording: EventDraft(types, rater: request.rater, stars: stars.count, status: status,
                                                              at: request.nowMilliseconds), connection, deadline)
            return ReviewWriteOutcome(review: stored, created: existing == nil, summary: summary, change: change)
        }
    }

    public func removeReview(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        write(completion) { connection, deadline in
            guard let item = try SummaryRow.first(of: connection.query(PostgresSQL.lockExistingItem, [request.item.rawValue], deadline: deadline)) else {
                return ClearOutcome(cleared: false, summary: .empty(request.item, on: request.defaultScale))
            }
            let removed = try connection.query(PostgresSQL.deleteReview, [request.item.rawValue, request.rater.rawValue], deadline: deadline)
            guard removed.rowCount > 0 else { return ClearOutcome(cleared: false, summary: item.summary(of: request.item)) }
            let status = ReviewStatus(rawValue: removed.text(0, 0)) ?? .pending
            var summary = item.summary(of: request.item)
            if status == .published {
                let updated = try connection.query(PostgresSQL.addReviews, [request.item.rawValue, "-1"], deadline: deadline)
                summary = (SummaryRow.first(of: updated) ?? item).summary(of: request.item)
            }
            try self.record(EventDraft([.reviewRemoved], rater: request.rater, stars: removed.int(0, 1), status: status, at: request.nowMilliseconds),
                            about: request.item, summary: summary, connection, deadline)
            return ClearOutcome(cleared: true, removedReview: true, summary: summary)
        }
    }

    public func vote(_ request: VoteRequest, completion: @escaping StoreCompletion<VoteOutcome>) {
        write(completion) { connection, deadline in
            let key = [request.item.rawValue, request.rater.rawValue]
            let review = try request.target(Self.lockedReview(key, connection, deadline))
            let found = try connection.query(PostgresSQL.selectVote, key + [request.voter.rawValue], deadline: deadline)
            let old: Bool? = found.rowCount > 0 ? found.bool(0, 0) : nil
            if let helpful = request.helpful {
                try connection.query(PostgresSQL.upsertVote, key + [request.voter.rawValue, helpful ? "true" : "false"], deadline: deadline)
            } else if old != nil {
                try connection.query(PostgresSQL.deleteVote, key + [request.voter.rawValue], deadline: deadline)
            }
            let outcome = request.outcome(on: review, replacing: old)
            let votes = outcome.review.votes
            if votes != review.votes {
                try connection.query(PostgresSQL.setHelpful, key + [String(votes.up), String(votes.down), String(votes.score.key)],
                                     deadline: deadline)
            }
            return outcome
        }
    }

    public func reply(_ request: ReplyRequest, completion: @escaping StoreCompletion<ReplyOutcome>) {
        write(completion) { connection, deadline in
            let key = [request.item.rawValue, request.rater.rawValue]
            let review = try request.target(Self.lockedReview(key, connection, deadline))
            let outcome = request.outcome(on: review)
            let reply = outcome.review.reply
            if reply != review.reply {
                try connection.query(PostgresSQL.setReply, key + [reply?.body, reply?.author, reply.map { String($0.updatedAtMilliseconds) }],
                                     deadline: deadline)
                try self.emitAbout(review, [.reviewReplied], at: request.nowMilliseconds, connection, deadline)
            }
            return outcome
        }
    }

    /// The review at `key` (item, rater), its row locked until the transaction ends; nil when there is none.
    static func lockedReview(_ key: [String], _ connection: PostgresConnection, _ deadline: Double) throws -> Review? {
        let rows = try connection.query(PostgresSQL.lockReview, key, deadline: deadline)
        return rows.rowCount > 0 ? rows.review(0) : nil
    }
}
