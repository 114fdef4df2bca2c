public import RatingsCore

/// Flags and moderation on PostgreSQL. A flag or a decision locks the item's row and then the
/// review's, the order every review write takes them in: flags that reach the threshold in
/// several processes at once queue there, and exactly one of them finds the review published.
extension PostgresRatingStore {
    public func flag(_ request: FlagRequest, completion: @escaping StoreCompletion<FlagOutcome>) {
        write(completion) { connection, deadline in
            let key = [request.item.rawValue, request.rater.rawValue]
            let existing = try Self.lockedItemReview(key, connection, deadline)
            let hadFlag = try existing != nil && connection.query(PostgresSQL.selectFlag, key + [request.flagger.rawValue], deadline: deadline).rowCount > 0
            var review = try request.target(existing, flaggerHasFlag: hadFlag)
            if let reason = request.reason {
                try connection.query(PostgresSQL.upsertFlag, key + [request.flagger.rawValue, reason.rawValue, request.note,
                                                                    String(request.nowMilliseconds)], deadline: deadline)
            } else {
                try connection.query(PostgresSQL.deleteFlag, key + [request.flagger.rawValue], deadline: deadline)
            }
            var change: ModerationEntry?
            if request.reason != nil {
                let round = try connection.query(PostgresSQL.roundFlagCount, key, deadline: deadline).int(0, 0)
                change = request.policy.flagsCrossing(review.status, flagsThisRound: round, at: request.nowMilliseconds)
            }
            if let change {
                try Self.apply(change, key, decided: false, connection, deadline)
                try Self.addPublished(review.status.publishedChange(to: change.status), key[0], connection, deadline)
                review.status = change.status
                try self.emitAbout(review, [.reviewPending], at: request.nowMilliseconds, connection, deadline)
            }
            return FlagOutcome(created: !hadFlag && request.reason != nil, review: review, change: change)
        }
    }

    public func moderate(_ request: ModerationRequest, completion: @escaping StoreCompletion<ModerationOutcome>) {
        write(completion) { connection, deadline in
            let key = [request.item.rawValue, request.rater.rawValue]
            guard var review = try Self.lockedItemReview(key, connection, deadline) else {
                throw ReviewError.reviewNotFound(item: request.item, rater: request.rater)
            }
            let entry = request.entry(from: review.status)
            try Self.apply(entry, key, decided: true, connection, deadline)
            try Self.addPublished(review.status.publishedChange(to: entry.status), key[0], connection, deadline)
            review.status = entry.status
            try self.emitAbout(review, EventRules.decision(entry), at: request.nowMilliseconds, connection, deadline)
            return ModerationOutcome(record: try Self.record(key, status: entry.status, connection, deadline), review: review)
        }
    }

    public func moderation(of item: ItemID, by rater: RaterID, completion: @escaping StoreCompletion<ModerationRecord?>) {
        snapshot(completion) { connection, deadline in
            let key = [item.rawValue, rater.rawValue]
            let rows = try connection.query(PostgresSQL.selectReview, key, deadline: deadline)
            guard rows.rowCount > 0 else { return nil }
            return try Self.record(key, status: rows.review(0).status, connection, deadline)
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

    /// The review at `key` (item, rater) with the item's row and then its own locked until the
    /// transaction ends; nil when there is none.
    private static func lockedItemReview(_ key: [String], _ connection: PostgresConnection, _ deadline: Double) throws -> Review? {
        guard try connection.query(PostgresSQL.lockExistingItem, [key[0]], deadline: deadline).rowCount > 0 else { return nil }
        return try lockedReview(key, connection, deadline)
    }

    /// Sets the status `entry` names and appends it to the history.
    private static func apply(_ entry: ModerationEntry, _ key: [String], decided: Bool, _ connection: PostgresConnection,
                              _ deadline: Double) throws {
        try connection.query(PostgresSQL.setStatus, key + [entry.status.rawValue, String(entry.atMilliseconds), decided ? "1" : "0"],
                             deadline: deadline)
        try append(entry, key, connection, deadline)
    }

    /// Appends `entry` to the history of the review at `key`.
    static func append(_ entry: ModerationEntry, _ key: [String], _ connection: PostgresConnection, _ deadline: Double) throws {
        try connection.query(PostgresSQL.appendHistory, key + [entry.status.rawValue, entry.previous.rawValue, entry.reason, entry.moderator,
                                                               String(entry.atMilliseconds)], deadline: deadline)
    }

    /// Adds `delta` published reviews to the item's count (nothing when it is 0).
    static func addPublished(_ delta: Int, _ item: String, _ connection: PostgresConnection, _ deadline: Double) throws {
        guard delta != 0 else { return }
        try connection.query(PostgresSQL.addReviews, [item, String(delta)], deadline: deadline)
    }

    private static func record(_ key: [String], status: ReviewStatus, _ connection: PostgresConnection, _ deadline: Double) throws -> ModerationRecord {
        let counts = try connection.query(PostgresSQL.flagCounts, key, deadline: deadline)
        let history = try connection.query(PostgresSQL.history, key, deadline: deadline)
        return ModerationRecord(
            status: status, flags: FlagCounts((0..<counts.rowCount).map { (counts.text($0, 0), counts.int($0, 1)) }),
            history: (0..<history.rowCount).map { row in
                ModerationQueries.entry(status: history.text(row, 0), previous: history.text(row, 1), reason: history.optionalText(row, 2),
                                        moderator: history.optionalText(row, 3), atMilliseconds: history.int(row, 4))
            })
    }
}
