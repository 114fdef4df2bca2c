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

    /// Two round trips: the item locked and the rating and review read under the lock, then the
    /// writes, the aggregates and COMMIT (the outbox rows and COMMIT a third, with webhooks).
    public func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue]
            let read = try transaction.queries([PipelinedStatement(PostgresSQL.lockItem, [key[0], String(request.defaultScale.maxRating)]),
                                                PipelinedStatement(PostgresSQL.selectStars, key),
                                                PipelinedStatement(PostgresSQL.selectReview, key)])
            let item = SummaryRow(read[0])
            let stars = try Stars(request.stars, on: item.scale)
            let previous = read[1].rowCount > 0 ? read[1].int(0, 0) : nil
            let existing = read[2].rowCount > 0 ? read[2].review(0) : nil
            let (status, change) = request.status(replacing: existing)
            transaction.send(PostgresSQL.upsertRating, key + [String(stars.count), String(request.nowMilliseconds)])
            let stored = transaction.send(PostgresSQL.upsertReview, key + [
                String(stars.count), request.title, request.body, request.language?.description, status.rawValue,
                String(request.nowMilliseconds),
            ])
            if let change { Self.append(change, key, transaction) }
            let published = existing.map { $0.status.publishedChange(to: status) } ?? (status == .published ? 1 : 0)
            let types = EventRules.writeReview(previousStars: previous, newStars: stars.count, replacing: existing, text: request.text,
                                               change: change)
            let summary = try self.move(request.item, from: item, into: stars.count, outOf: previous, reviews: published,
                                        recording: EventDraft(types, rater: request.rater, stars: stars.count, status: status,
                                                              at: request.nowMilliseconds), transaction)
            return ReviewWriteOutcome(review: try stored.get().review(0), created: existing == nil, summary: summary, change: change)
        }
    }

    public func removeReview(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        write(completion) { transaction in
            // Without the item there is no review to delete.
            let found = try transaction.queries([PipelinedStatement(PostgresSQL.lockExistingItem, [request.item.rawValue]),
                                                 PipelinedStatement(PostgresSQL.deleteReview, [request.item.rawValue, request.rater.rawValue])])
            let removed = found[1]
            guard let item = SummaryRow.first(of: found[0]) else {
                return ClearOutcome(cleared: false, summary: .empty(request.item, on: request.defaultScale))
            }
            guard removed.rowCount > 0 else { return ClearOutcome(cleared: false, summary: item.summary(of: request.item)) }
            let status = ReviewStatus(rawValue: removed.text(0, 0)) ?? .pending
            var summary = item.summary(of: request.item)
            if status == .published {
                let updated = try transaction.query(PostgresSQL.addReviews, [request.item.rawValue, "-1"])
                summary = (SummaryRow.first(of: updated) ?? item).summary(of: request.item)
            }
            try self.record(EventDraft([.reviewRemoved], rater: request.rater, stars: removed.int(0, 1), status: status, at: request.nowMilliseconds),
                            about: request.item, summary: summary, transaction)
            return ClearOutcome(cleared: true, removedReview: true, summary: summary)
        }
    }

    /// Two round trips: the review locked and the voter's vote read, then the vote, the counts
    /// and COMMIT.
    public func vote(_ request: VoteRequest, completion: @escaping StoreCompletion<VoteOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue], voter = request.voter.rawValue
            let read = try transaction.queries([PipelinedStatement(PostgresSQL.lockReview, key),
                                                PipelinedStatement(PostgresSQL.selectVote, key + [voter])])
            let review = try request.target(read[0].rowCount > 0 ? read[0].review(0) : nil)
            let old: Bool? = read[1].rowCount > 0 ? read[1].bool(0, 0) : nil
            if let helpful = request.helpful {
                transaction.send(PostgresSQL.upsertVote, key + [voter, helpful ? "true" : "false"])
            } else if old != nil {
                transaction.send(PostgresSQL.deleteVote, key + [voter])
            }
            let outcome = request.outcome(on: review, replacing: old)
            let votes = outcome.review.votes
            if votes != review.votes {
                transaction.send(PostgresSQL.setHelpful, key + [String(votes.up), String(votes.down), String(votes.score.key)])
            }
            return outcome
        }
    }

    public func reply(_ request: ReplyRequest, completion: @escaping StoreCompletion<ReplyOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue]
            let review = try request.target(Self.lockedReview(key, transaction))
            let outcome = request.outcome(on: review)
            let reply = outcome.review.reply
            if reply != review.reply {
                transaction.send(PostgresSQL.setReply, key + [reply?.body, reply?.author, reply.map { String($0.updatedAtMilliseconds) }])
                try self.emitAbout(review, [.reviewReplied], at: request.nowMilliseconds, transaction)
            }
            return outcome
        }
    }

    /// The review at `key` (item, rater), its row locked until the transaction ends; nil when there is none.
    static func lockedReview(_ key: [String], _ transaction: PostgresTransaction) throws -> Review? {
        let rows = try transaction.query(PostgresSQL.lockReview, key)
        return rows.rowCount > 0 ? rows.review(0) : nil
    }
}
