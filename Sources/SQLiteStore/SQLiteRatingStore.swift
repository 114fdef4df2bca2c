import Glibc
import Platform
public import RatingsCore

/// Settings of the SQLite store, with the defaults the service runs on.
public struct SQLiteStoreConfiguration: Sendable {
    /// The database file; created when missing.
    public var path: String
    /// How long a connection waits for another process's lock before failing with SQLITE_BUSY.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// How many idle read connections are kept (one per event loop is what a server uses).
    public var maxIdleReaders: Int = 4
    /// How many reads run at once, each on a connection and a thread of its own; more wait their
    /// turn. Default twice the cores, at least 4: reads are short, and a slow disk then costs a
    /// bounded number of threads rather than one per waiting request.
    public var maxReaders = max(4, 2 * Machine.coreCount)
    /// How long a read waits for its turn before it fails with a storage error (503), as a
    /// PostgreSQL request waits for a connection. Default 4.5 s, within the 5 s the service promises.
    public var readQueueTimeoutSeconds = 4.5
    /// How often the WAL is checkpointed beside the writer, in milliseconds.
    public var checkpointIntervalMilliseconds = 100
    /// About how many items' rows are kept in memory for reads; 0 turns the cache off. Only a store
    /// that claims its file (`claimsFile`) caches, since another process could change the file.
    /// Default 20,000 (a few MiB).
    public var cachedItems = 20_000
    /// Whether the store claims the file for this process alone (`ratings serve` does, so a
    /// second server on the same file is refused). Default false.
    public var claimsFile = false
    /// The Bayesian ranking's prior and weight; the stored scores follow them.
    public var ranking = RankingSettings.standard
    /// Records each write's change events in the outbox, in the write's transaction; nil (the
    /// default) records none.
    public var events: (any EventRecorder)?

    public init(path: String) { self.path = path }
}

/// The ratings store on one SQLite file: WAL, one group-committing writer, pooled readers,
/// aggregates kept in the same transaction as each rating.
public final class SQLiteRatingStore: ReviewStore {
    private let writer: GroupCommitWriter
    private let readers: ReaderPool
    private let checkpointer: Checkpointer
    private let ownership: FileOwnership?
    private let ranking: RankingSettings
    private let cache: SummaryCache?
    public let cursorSecret: [UInt8]
    /// The database file.
    public let path: String

    /// Opens the database, applies pending migrations, and prepares every statement.
    public convenience init(_ configuration: SQLiteStoreConfiguration) throws {
        try self.init(configuration, wal: WALFile.init(databasePath:))
    }

    /// As the public init, with `wal` opening what syncs the WAL of the database at a path: the
    /// file itself, or a test's stand-in.
    init(_ configuration: SQLiteStoreConfiguration, wal: (String) throws(SQLiteError) -> any WALSyncing) throws {
        path = configuration.path
        ownership = configuration.claimsFile ? try FileOwnership(path: configuration.path) : nil
        let (connection, _) = try Self.openMigrated(configuration)
        ranking = configuration.ranking
        cursorSecret = try SettingsSetup(connection: connection, ranking: configuration.ranking, name: configuration.path).run()
        let cache = SummaryCache(capacity: configuration.claimsFile ? configuration.cachedItems : 0)
        self.cache = configuration.claimsFile && configuration.cachedItems > 0 ? cache : nil
        // The writer's COMMIT writes the WAL without syncing it; the syncer syncs it before any
        // write is acknowledged (see GroupCommitWriter), while the writer goes on.
        try connection.execute("PRAGMA synchronous = NORMAL")
        writer = try GroupCommitWriter(session: try WriteSession(connection: connection, ranking: configuration.ranking, recorder: configuration.events),
                                       wal: try wal(configuration.path), cache: cache)
        checkpointer = try Checkpointer(path: configuration.path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                                        intervalMilliseconds: configuration.checkpointIntervalMilliseconds)
        readers = ReaderPool(path: configuration.path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
                             maxIdle: configuration.maxIdleReaders, maxReaders: configuration.maxReaders,
                             queueTimeoutSeconds: configuration.readQueueTimeoutSeconds)
    }

    /// The migrations of `migrations/sqlite/` this binary carries, in order.
    public static let migrations = Migration.sorted(embeddedMigrationFiles)

    /// Applies pending migrations to the database at `path`; returns the names applied.
    public static func migrate(_ configuration: SQLiteStoreConfiguration) throws -> [String] {
        try openMigrated(configuration).applied
    }

    /// Opens a configured connection and brings the database up to this binary's schema.
    static func openMigrated(_ configuration: SQLiteStoreConfiguration) throws -> (connection: SQLiteConnection, applied: [String]) {
        let connection = try SQLiteConnection(path: configuration.path)
        try connection.configure(busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        return (connection, try Migrator(migrations: SQLiteRatingStore.migrations).migrate(connection))
    }

    /// From the cache in place when the item is cached (memory only: nothing waits), else from
    /// the file on a reader thread.
    public func summary(of item: ItemID, defaultScale: Scale, completion: @escaping StoreCompletion<ItemSummary>) {
        if let summary = cachedSummary(of: item, defaultScale: defaultScale) { return completion(.success(summary)) }
        readers.read(completion) { [cache] reader in
            let mark = cache?.beginRead(item)
            let row = try reader.row(of: item)
            let summary = row?.summary(of: item)
            if let cache, let mark { cache.fill(item, summary.map(SummaryCache.Entry.summary) ?? .absent, readSince: mark) }
            return summary ?? .empty(item, on: defaultScale)
        }
    }

    /// Exact: the cache holds every row as last committed (see `SummaryCache`).
    public func cachedSummary(of item: ItemID, defaultScale: Scale) -> ItemSummary? {
        cache?.entry(item).map { $0.summary(of: item, defaultScale: defaultScale) }
    }

    public func cachedSummaries(of items: [ItemID], defaultScale: Scale) -> [ItemSummary]? {
        guard let cache else { return nil }
        var summaries: [ItemSummary] = []
        summaries.reserveCapacity(items.count)
        for item in items {
            guard cache.appendSummary(of: item, defaultScale: defaultScale, to: &summaries) else { return nil }
        }
        return summaries
    }

    /// In place when no rater is named and every item is cached; else on a reader thread.
    public func summaries(of items: [ItemID], rater: RaterID?, defaultScale: Scale, completion: @escaping StoreCompletion<[ItemListing]>) {
        if rater == nil, let cached = cachedSummaries(of: items, defaultScale: defaultScale) {
            return completion(.success(cached.map { ItemListing(summary: $0, myStars: nil) }))
        }
        readers.read(completion) { [cache] reader in
            let marks = cache.map { cache in items.map(cache.beginRead) }
            let found = try reader.rows(of: items, rater: rater)
            return items.indices.map { index in
                let summary = found[index].row?.summary(of: items[index])
                if let cache, let marks {
                    cache.fill(items[index], summary.map(SummaryCache.Entry.summary) ?? .absent, readSince: marks[index])
                }
                return ItemListing(summary: summary ?? .empty(items[index], on: defaultScale), myStars: found[index].stars.map(Stars.init(stored:)))
            }
        }
    }

    public func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterPage>) {
        readers.read(completion) { try $0.ratings(by: rater, after: position, limit: limit, defaultScale: defaultScale) }
    }

    public func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, completion: @escaping StoreCompletion<RankingPage>) {
        readers.read(completion) { [ranking] in try $0.topRanked(after: position, limit: limit, minCount: minCount, ranking: ranking) }
    }

    public func erase(_ rater: RaterID, completion: @escaping StoreCompletion<Erasure>) {
        writer.enqueue(WriteJob(rater, { try $0.erase($1) }, completion: completion))
    }

    public func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Rating?>) {
        readers.read(completion) { try $0.rating(of: item, by: rater, defaultScale: defaultScale) }
    }

    public func submit(_ request: SubmitRequest, completion: @escaping StoreCompletion<SubmitOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.submit($1) }, completion: completion))
    }

    public func clear(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.clear($1) }, completion: completion))
    }

    public func configure(_ request: ConfigureRequest, completion: @escaping StoreCompletion<ConfigureOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.configure($1) }, completion: completion))
    }

    // MARK: Reviews

    public func review(of item: ItemID, by rater: RaterID, defaultScale: Scale, completion: @escaping StoreCompletion<Review?>) {
        readers.read(completion) { try $0.review(of: item, by: rater) }
    }

    public func writeReview(_ request: ReviewWriteRequest, completion: @escaping StoreCompletion<ReviewWriteOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.writeReview($1) }, completion: completion))
    }

    public func removeReview(_ request: ClearRequest, completion: @escaping StoreCompletion<ClearOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.removeReview($1) }, completion: completion))
    }

    public func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter, after position: ReviewPosition?, limit: Int,
                        defaultScale: Scale, completion: @escaping StoreCompletion<ItemReviewPage>) {
        readers.read(completion) { try $0.reviews(of: item, sort: sort, filter: filter, after: position, limit: limit, defaultScale: defaultScale) }
    }

    public func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale,
                        completion: @escaping StoreCompletion<RaterReviewPage>) {
        readers.read(completion) { try $0.reviews(by: rater, after: position, limit: limit) }
    }

    public func vote(_ request: VoteRequest, completion: @escaping StoreCompletion<VoteOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.vote($1) }, completion: completion))
    }

    public func reply(_ request: ReplyRequest, completion: @escaping StoreCompletion<ReplyOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.reply($1) }, completion: completion))
    }

    /// From the cache's versions, when this process claims the file (and so holds its only writer).
    public func flag(_ request: FlagRequest, completion: @escaping StoreCompletion<FlagOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.flag($1) }, completion: completion))
    }

    public func moderate(_ request: ModerationRequest, completion: @escaping StoreCompletion<ModerationOutcome>) {
        writer.enqueue(WriteJob(request, { try $0.moderate($1) }, completion: completion))
    }

    public func moderation(of item: ItemID, by rater: RaterID, completion: @escaping StoreCompletion<ModerationRecord?>) {
        readers.read(completion) { try $0.moderation(of: item, by: rater) }
    }

    public func moderationQueue(after position: QueuePosition?, limit: Int, completion: @escaping StoreCompletion<ModerationQueuePage>) {
        readers.read(completion) { try $0.moderationQueue(after: position, limit: limit) }
    }

    public func pendingReviewCount(completion: @escaping StoreCompletion<Int>) {
        readers.read(completion) { try $0.pendingReviews() }
    }

    // MARK: The outbox

    public func claimDeliveries(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64,
                                completion: @escaping StoreCompletion<[OutboxDelivery]>) {
        writer.enqueue(WriteJob(nowMilliseconds, {
            try $0.claimDeliveries(for: endpoint, nowMilliseconds: $1, limit: limit, leaseMilliseconds: leaseMilliseconds)
        }, completion: completion))
    }

    public func finishDelivery(_ result: DeliveryResult, completion: @escaping StoreCompletion<Void>) {
        writer.enqueue(WriteJob(result, { try $0.finishDelivery($1) }, completion: completion))
    }

    public func abandonDeliveries(for endpoint: String, nowMilliseconds: Int64, reason: String, completion: @escaping StoreCompletion<Int>) {
        writer.enqueue(WriteJob(nowMilliseconds, { try $0.abandonDeliveries(for: endpoint, nowMilliseconds: $1, reason: reason) },
                                completion: completion))
    }

    public func pruneDeliveries(finishedBefore beforeMilliseconds: Int64, completion: @escaping StoreCompletion<Int>) {
        writer.enqueue(WriteJob(beforeMilliseconds, { try $0.pruneDeliveries(finishedBefore: $1) }, completion: completion))
    }

    public func deliveryTotals(completion: @escaping StoreCompletion<[String: DeliveryTotals]>) {
        readers.read(completion) { try $0.deliveryTotals() }
    }

    public func pendingDeliveries(completion: @escaping StoreCompletion<[String: Int]>) {
        readers.read(completion) { try $0.pendingDeliveries() }
    }

    public func reviewListVersion(of item: ItemID) -> UInt64? { cache?.reviewListVersion(of: item) }

    public func checkReady(completion: @escaping StoreCompletion<Void>) {
        readers.read(completion) { try $0.ping() }
    }

    /// Waits for every queued write to finish.
    public func flush() { writer.flush() }

    /// For a clean stop, once nothing writes any more: waits for the queued writes, ends the
    /// background checkpoints and empties the WAL into the database file, so that the file alone
    /// (a copy without its `-wal`, say) holds every write; a write after it fails. The checkpointer's
    /// and the idle readers' connections close first, so that the writer's is the file's last and
    /// SQLite removes the `-wal` and `-shm` files as it closes. When this fails nothing is lost:
    /// SQLite applies the WAL when the file is next opened.
    public func stop() throws(SQLiteError) {
        checkpointer.stop()
        readers.close()
        try writer.stop()
    }
}
