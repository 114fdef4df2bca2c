import Platform
public import RatingsCore

/// The ratings store on PostgreSQL, for any number of `ratings serve` processes sharing one
/// database: no cache (every read asks the database, so every replica sees every acknowledged
/// write), aggregates updated in the same transaction as each rating under a lock on the item's
/// row, transactions retried on serialization failures and deadlocks, a bounded pool, and a
/// deadline on every request so an outage answers 503 instead of hanging.
public final class PostgresRatingStore: RatingStore {
    /// The migrations of `migrations/postgresql/` this binary carries, in order.
    public static let migrations = Migration.sorted(embeddedMigrationFiles)

    let configuration: PostgresConfiguration
    let pool: ConnectionPool
    public let cursorSecret: [UInt8]
    /// Rating writes waiting for a worker, run together.
    let submits: RequestBatcher<PendingSubmit>
    /// Summary reads waiting for a worker, read together.
    let summaryReads: RequestBatcher<PendingSummary>

    /// Connects, applies pending migrations and readies the shared settings (waiting for any
    /// other process doing the same), and starts the pool.
    public init(_ configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        cursorSecret = try Self.withMigrationLock(configuration) { connection, deadline in
            _ = try PostgresMigrator(migrations: Self.migrations).migrate(connection, deadline: deadline)
            return try prepareSettings(connection, ranking: configuration.ranking, name: configuration.redacted, deadline: deadline)
        }
        pool = try ConnectionPool(configuration)
        let writes = RatingWrites(configuration: configuration, rate: PostgresSQL.rate(configuration.ranking))
        submits = RequestBatcher(pool: pool, limit: RatingWrites.batchLimit, run: writes.run, fail: { $0.completion(.failure($1)) })
        summaryReads = RequestBatcher(pool: pool, limit: SummaryReads.batchLimit, run: SummaryReads.run, fail: { $0.completion(.failure($1)) })
    }

    /// Applies pending migrations; returns the names applied.
    public static func migrate(_ configuration: PostgresConfiguration) throws -> [String] {
        try withMigrationLock(configuration) { connection, deadline in
            try PostgresMigrator(migrations: migrations).migrate(connection, deadline: deadline)
        }
    }

    private static func withMigrationLock<T>(_ configuration: PostgresConfiguration,
                                             _ body: (PostgresConnection, Double) throws -> T) throws -> T {
        // Migrations and re-scoring may take a while on a large database; they get ten minutes,
        // not a request's time.
        let deadline = SystemClock.monotonicSeconds() + 600
        let connection = try PostgresConnection(uri: configuration.uri, applicationName: "ratings migrate", deadline: deadline)
        return try PostgresMigrator.locked(connection, deadline: deadline) { try body(connection, deadline) }
    }

    /// Finishes queued requests and closes every connection.
    public func close() { pool.close() }

    // MARK: Reads

    /// See `SummaryReads`: one statement for every summary read that waited for a worker with this one.
    public func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>) {
        summaryReads.add(PendingSummary(item: item, defaultScale: defaultScale, completion: completion))
    }

    public func summaries(of items: [ItemID], rater: RaterID?, defaultScale: Scale, completion: @escaping StoreCompletion<[ItemListing]>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectListings, [PostgresSQL.textArray(Array(Set(items.map(\.rawValue)))),
                                                                         rater?.rawValue ?? ""], deadline: deadline)
            var found: [String: (SummaryRow, Int?)] = [:]
            for row in 0..<rows.rowCount {
                found[rows.text(row, 0)] = (SummaryRow(rows, row: row, offset: 1), rows.isNull(row, 1 + SummaryRow.columnCount) ? nil : rows.int(row, 1 + SummaryRow.columnCount))
            }
            return items.map { item in
                guard let (row, stars) = found[item.rawValue] else { return ItemListing(summary: .empty(item, on: defaultScale), myStars: nil) }
                return ItemListing(summary: row.summary(of: item), myStars: rater == nil ? nil : stars.map(Stars.init(stored:)))
            }
        }, completion: completion)
    }

    public func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterPage>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectRaterPage, [rater.rawValue, String(position?.updatedAtMilliseconds ?? .max),
                                                                          position?.item.rawValue ?? "", String(limit + 1)], deadline: deadline)
            let ratings = (0..<rows.rowCount).map { row in
                Rating(item: ItemID(stored: rows.text(row, 0)), rater: rater, stars: Stars(stored: rows.int(row, 1)),
                       scale: (try? Scale(maxRating: rows.int(row, 3))) ?? defaultScale, updatedAtMilliseconds: Int64(rows.int(row, 2)))
            }
            return RaterPage(cutting: ratings, limit: limit)
        }, completion: completion)
    }

    public func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, completion: @escaping StoreCompletion<RankingPage>) {
        let ranking = configuration.ranking
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectRankingPage, [
                String(position?.scoreHigh ?? .max), String(position?.scoreLow ?? .max), String(position?.count ?? .max),
                position?.item.rawValue ?? "", String(minCount), String(limit + 1),
            ], deadline: deadline)
            let items = (0..<rows.rowCount).map { SummaryRow(rows, row: $0, offset: 1).summary(of: ItemID(stored: rows.text($0, 0))) }
            return RankingPage(cutting: items, limit: limit, ranking: ranking)
        }, completion: completion)
    }

    public func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Rating?>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(PostgresSQL.selectRatingWithScale, [item.rawValue, rater.rawValue], deadline: deadline)
            guard rows.rowCount > 0 else { return nil }
            return Rating(item: item, rater: rater, stars: Stars(stored: rows.int(0, 0)),
                          scale: (try? Scale(maxRating: rows.int(0, 2))) ?? defaultScale, updatedAtMilliseconds: Int64(rows.int(0, 1)))
        }, completion: completion)
    }

    public func checkReady(completion: @escaping StoreCompletion<Void>) {
        pool.run({ connection, deadline in _ = try connection.query(PostgresSQL.ping, deadline: deadline) }, completion: completion)
    }

    // MARK: Writes

    /// See `RatingWrites`: one round trip and one commit for every write that waited for a worker
    /// with this one.
    public func submit(_ request: SubmitRequest, completion: @escaping StoreCompletion<SubmitOutcome>) {
        submits.add(PendingSubmit(request: request, completion: completion))
    }

    public func clear(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        write(completion) { transaction in
            let key = [request.item.rawValue, request.rater.rawValue]
            // Without the item there is no rating or review to delete: both statements find nothing.
            let found = try transaction.queries([PipelinedStatement(PostgresSQL.lockExistingItem, [key[0]]),
                                                 PipelinedStatement(PostgresSQL.deleteReview, key),
                                                 PipelinedStatement(PostgresSQL.deleteRating, key)])
            let (review, removed) = (found[1], found[2])
            guard let item = SummaryRow.first(of: found[0]) else {
                return ClearOutcome(cleared: false, summary: .empty(request.item, on: request.defaultScale))
            }
            guard removed.rowCount > 0 else { return ClearOutcome(cleared: false, summary: item.summary(of: request.item)) }
            let reviewsGone = review.rowCount > 0 && review.text(0, 0) == ReviewStatus.published.rawValue ? 1 : 0
            let status = review.rowCount > 0 ? ReviewStatus(rawValue: review.text(0, 0)) : nil
            let events = EventDraft(EventRules.clear(cleared: true, removedReview: review.rowCount > 0), rater: request.rater, stars: nil,
                                    status: status, at: request.nowMilliseconds)
            let summary = try self.move(request.item, from: item, into: nil, outOf: removed.int(0, 0), reviews: -reviewsGone, recording: events,
                                        transaction)
            return ClearOutcome(cleared: true, removedReview: review.rowCount > 0, summary: summary)
        }
    }

    public func configure(_ request: ConfigureRequest, completion: @escaping StoreCompletion<ConfigureOutcome>) {
        write(completion) { transaction in
            let item = try SummaryRow(transaction.query(PostgresSQL.lockItem, [request.item.rawValue, String(request.scale.maxRating)]))
            if item.count > 0, item.scale != request.scale {
                throw RatingError.scaleConflict(current: item.scale, requested: request.scale, ratingCount: item.count)
            }
            let updated = try SummaryRow(transaction.query(PostgresSQL.setScale, [request.item.rawValue, String(request.scale.maxRating)]))
            let summary = updated.summary(of: request.item)
            try self.record(EventDraft(EventRules.configure(before: item, scale: request.scale), rater: nil, stars: nil, at: request.nowMilliseconds),
                            about: request.item, summary: summary, transaction)
            return ConfigureOutcome(created: !item.isScaleExplicit, summary: summary)
        }
    }

    /// Runs `body` in a transaction on a pooled connection (`PostgresTransaction`: its statements
    /// in as few round trips as it allows), again from the start after a serialization failure or
    /// deadlock; the result is delivered once COMMIT has returned.
    func write<T: Sendable>(_ completion: @escaping StoreCompletion<T>, begin: String = "BEGIN",
                            _ body: @escaping @Sendable (PostgresTransaction) throws -> T) {
        let retries = configuration.maxRetries
        pool.run({ connection, deadline in
            var attempt = 0
            while true {
                let transaction = PostgresTransaction(connection, begin: begin, deadline: deadline)
                do {
                    let value = try body(transaction)
                    try transaction.commit()
                    return value
                } catch {
                    transaction.rollBack()
                    if let failure = error as? PostgresError, failure.isRetryable, attempt < retries {
                        attempt += 1
                        continue
                    }
                    throw error
                }
            }
        }, completion: completion)
    }

    /// Runs the reads of `body` in one snapshot (a read-only REPEATABLE READ transaction).
    func snapshot<T: Sendable>(_ completion: @escaping StoreCompletion<T>, _ body: @escaping @Sendable (PostgresTransaction) throws -> T) {
        write(completion, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Updates count, sum, histogram, score key (and, recording `events`, the version, with their
    /// outbox rows) in the same transaction as the rating row, from the locked item's row as it
    /// was and the change. The write's last statement: without events to record, COMMIT goes
    /// with it.
    func move(_ item: ItemID, from row: SummaryRow, into new: Int?, outOf old: Int?, reviews: Int = 0, recording events: EventDraft? = nil,
              _ transaction: PostgresTransaction) throws -> ItemSummary {
        let moved = row.moving(into: new, outOf: old)
        let key = configuration.ranking.key(count: moved.count, sum: moved.sum, scale: moved.scale)
        let recording = configuration.events != nil && !(events?.types.isEmpty ?? true)
        let rows = try transaction.query(PostgresSQL.applyDelta, [item.rawValue, new.map(String.init), old.map(String.init),
                                                                  key.high.map(String.init), key.low.map(String.init), String(reviews),
                                                                  recording ? "1" : "0"],
                                         commit: !recording)
        guard let updated = SummaryRow.first(of: rows) else {
            throw PostgresError(kind: .server, sqlstate: "", operation: PostgresSQL.applyDelta, message: "the item row vanished inside its transaction")
        }
        let summary = updated.summary(of: item)
        if recording, let recorder = configuration.events, let events {
            transaction.send(Self.outbox(recorder.entries(for: events.events(item: item, version: updated.version, summary: summary))))
        }
        return summary
    }

    /// Erases a rater in two round trips: the locks and every removal in the first (each
    /// statement answering what it removed), the keys computed from those answers, the events and
    /// COMMIT in the second.
    public func erase(_ rater: RaterID, completion: @escaping StoreCompletion<Erasure>) {
        let ranking = configuration.ranking
        write(completion) { transaction in
            let removals = try transaction.queries([PostgresSQL.lockRaterItems, PostgresSQL.eraseVoterVotes, PostgresSQL.eraseRaterReviews,
                                                    PostgresSQL.eraseRater, PostgresSQL.deleteFlaggerFlags, PostgresSQL.deleteAuthorHistory]
                .map { PipelinedStatement($0, [rater.rawValue]) })
            let votes = Self.rescoreReviews(afterErasingVotes: removals[1], transaction)
            let reviews = removals[2], rows = removals[3]
            let reviewed = Set((0..<reviews.rowCount).map { ItemID(stored: reviews.text($0, 0)) })
            var ids: [String] = [], highs: [Int?] = [], lows: [Int?] = [], removed = 0, erased: [(ItemID, EventDraft, ItemSummary)] = []
            let now = SystemClock.wallMilliseconds()
            for row in 0..<rows.rowCount {
                let summary = SummaryRow(rows, row: row, offset: 1)
                let item = ItemID(stored: rows.text(row, 0))
                erased.append((item, EventDraft(EventRules.clear(cleared: true, removedReview: reviewed.contains(item)), rater: rater, stars: nil,
                                                at: now), summary.summary(of: item)))
                let key = ranking.key(count: summary.count, sum: summary.sum, scale: summary.scale)
                ids.append(rows.text(row, 0))
                highs.append(key.high)
                lows.append(key.low)
                removed += rows.int(row, 1 + SummaryRow.columnCount)
            }
            if !ids.isEmpty {
                transaction.send(PostgresSQL.setScores, [PostgresSQL.textArray(ids), PostgresSQL.integerArray(highs), PostgresSQL.integerArray(lows)])
            }
            let erasure = Erasure(ratings: removed, reviews: reviews.rowCount, votes: votes, flags: removals[4].affectedRows)
            for (item, events, summary) in erased { try self.record(events, about: item, summary: summary, transaction) }
            self.emit(ChangeEvent(type: .raterErased, atMilliseconds: now, subject: .rater(rater, erasure)), transaction)
            return erasure
        }
    }

    /// Stores the helpful keys of the reviews whose counts `eraseVoterVotes` moved (`rows`, its
    /// answer); returns how many votes it removed.
    private static func rescoreReviews(afterErasingVotes rows: PostgresResult, _ transaction: PostgresTransaction) -> Int {
        guard rows.rowCount > 0 else { return 0 }
        var items: [String] = [], authors: [String] = [], keys: [Int?] = [], removed = 0
        for row in 0..<rows.rowCount {
            items.append(rows.text(row, 0))
            authors.append(rows.text(row, 1))
            keys.append(Int(HelpfulScore(up: rows.int(row, 2), down: rows.int(row, 3)).key))
            removed += rows.int(row, 4)
        }
        transaction.send(PostgresSQL.setHelpfulKeys, [PostgresSQL.textArray(items), PostgresSQL.textArray(authors), PostgresSQL.integerArray(keys)])
        return removed
    }
}
