public import RatingsCore

/// Flags and moderation on PostgreSQL. A flag or a decision locks the item's row and then the
/// review's, the order every review write takes them in: flags that reach the threshold in
/// several processes at once queue there, and exactly one of them finds the review published.
extension PostgresRatingStore {
    /// Two round trips, three when a flag is placed (its round's count decides whether the
    /// review is queued): the item and the review locked with the flagger's flag read, then the
    /// flag, then what the count decided and COMMIT.
    public func flag(_ request: FlagRequest, completion: @escaping StoreCompletion<FlagOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue]
            let read = try transaction.queries(Self.lockItemReview(key) + [PipelinedStatement(PostgresSQL.selectFlag, key + [request.flagger.rawValue])])
            let existing = Self.review(lockedBy: read)
            let hadFlag = existing != nil && read[2].rowCount > 0
            var review = try request.target(existing, flaggerHasFlag: hadFlag)
            var change: ModerationEntry?
            if let reason = request.reason {
                transaction.send(PostgresSQL.upsertFlag, key + [request.flagger.rawValue, reason.rawValue, request.note, String(request.nowMilliseconds)])
                let round = try transaction.query(PostgresSQL.roundFlagCount, key).int(0, 0)
                change = request.policy.flagsCrossing(review.status, flagsThisRound: round, at: request.nowMilliseconds)
            } else {
                transaction.send(PostgresSQL.deleteFlag, key + [request.flagger.rawValue])
            }
            if let change {
                Self.apply(change, key, decided: false, transaction)
                Self.addPublished(review.status.publishedChange(to: change.status), key[0], transaction)
                review.status = change.status
                try self.emitAbout(review, [.reviewPending], at: request.nowMilliseconds, transaction)
            }
            return FlagOutcome(created: !hadFlag && request.reason != nil, review: review, change: change)
        }
    }

    /// Two round trips: the item and the review locked, then the decision, its effects, the
    /// record read back and COMMIT.
    public func moderate(_ request: ModerationRequest, completion: @escaping StoreCompletion<ModerationOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue]
            guard var review = try Self.review(lockedBy: transaction.queries(Self.lockItemReview(key))) else {
                throw ReviewError.reviewNotFound(item: request.item, rater: request.rater)
            }
            let entry = request.entry(from: review.status)
            Self.apply(entry, key, decided: true, transaction)
            Self.addPublished(review.status.publishedChange(to: entry.status), key[0], transaction)
            review.status = entry.status
            try self.emitAbout(review, EventRules.decision(entry), at: request.nowMilliseconds, transaction)
            return ModerationOutcome(record: try Self.record(key, status: entry.status, transaction), review: review)
        }
    }

    public func moderation(of item: ItemID, by rater: RaterID, completion: @escaping StoreCompletion<ModerationRecord?>) {
        snapshot(completion) { transaction in
            let key = [item.rawValue, rater.rawValue]
            let rows = try transaction.query(PostgresSQL.selectReview, key)
            guard rows.rowCount > 0 else { return nil }
            return try Self.record(key, status: rows.review(0).status, transaction)
        }
    }

    public func moderationQueue(after position: QueuePosition?, limit: Int, completion: @escaping StoreCompletion<ModerationQueuePage>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.queuePage, [
                String(position?.pendingSinceMilliseconds ?? .min), position?.item.rawValue ?? "", position?.rater.rawValue ?? "", String(limit + 1),
            ], deadline: deadline)
            let since = ModerationQueries.queueSinceColumn
            let fetched = (0..<rows.rowCount).map { row in
                QueuedReview(review: rows.review(row),
                             flags: FlagCounts { rows.int(row, since + 1 + $0) },
                             pendingSinceMilliseconds: Int64(rows.int(row, since)))
            }
            return ModerationQueuePage(cutting: fetched, limit: limit)
        }, completion: completion)
    }

    public func pendingReviewCount(completion: @escaping StoreCompletion<Int>) {
        pool.run({ connection, deadline in
            try connection.query(ModerationQueries.pendingCount, deadline: deadline).int(0, 0)
        }, completion: completion)
    }

    /// The statements that lock the item's row and then the review's at `key` (item, rater), the
    /// order every review write takes them in; `review(lockedBy:)` reads their answer.
    private static func lockItemReview(_ key: [String]) -> [PipelinedStatement] {
        [PipelinedStatement(PostgresSQL.lockExistingItem, [key[0]]), PipelinedStatement(PostgresSQL.lockReview, key)]
    }

    /// The review `lockItemReview`'s statements found (and locked); nil when there is none.
    private static func review(lockedBy results: [PostgresResult]) -> Review? {
        results[0].rowCount > 0 && results[1].rowCount > 0 ? results[1].review(0) : nil
    }

    /// Sets the status `entry` names and appends it to the history.
    private static func apply(_ entry: ModerationEntry, _ key: [String], decided: Bool, _ transaction: PostgresTransaction) {
        transaction.send(PostgresSQL.setStatus, key + [entry.status.rawValue, String(entry.atMilliseconds), decided ? "1" : "0"])
        append(entry, key, transaction)
    }

    /// Appends `entry` to the history of the review at `key`.
    static func append(_ entry: ModerationEntry, _ key: [String], _ transaction: PostgresTransaction) {
        transaction.send(PostgresSQL.appendHistory, key + [entry.status.rawValue, entry.previous.rawValue, entry.reason, entry.moderator,
                                                           String(entry.atMilliseconds)])
    }

    /// Adds `delta` published reviews to the item's count (nothing when it is 0).
    static func addPublished(_ delta: Int, _ item: String, _ transaction: PostgresTransaction) {
        guard delta != 0 else { return }
        transaction.send(PostgresSQL.addReviews, [item, String(delta)])
    }

    /// The review's moderation record: the transaction's last statements, so COMMIT goes with them.
    private static func record(_ key: [String], status: ReviewStatus, _ transaction: PostgresTransaction) throws -> ModerationRecord {
        let read = try transaction.queries([PipelinedStatement(PostgresSQL.flagCounts, key), PipelinedStatement(PostgresSQL.history, key)],
                                           commit: true)
        let (counts, history) = (read[0], read[1])
        return ModerationRecord(
            status: status, flags: FlagCounts((0..<counts.rowCount).map { (counts.text($0, 0), counts.int($0, 1)) }),
            history: (0..<history.rowCount).map { row in
                ModerationQueries.entry(status: history.text(row, 0), previous: history.text(row, 1), reason: history.optionalText(row, 2),
                                        moderator: history.optionalText(row, 3), atMilliseconds: history.int(row, 4))
            })
    }
}
