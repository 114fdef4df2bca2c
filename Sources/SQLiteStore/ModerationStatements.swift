import RatingsCore

/// The moderation statements of one connection, prepared once, each behind a typed call. The
/// writer's session uses the writes and the record; a read connection the record and the queue.
final class ModerationStatements {
    private static let sql: ModerationQueries.Parameter = { position, _ in "?\(position)" }

    private let selectFlag: SQLiteStatement
    private let upsertFlag: SQLiteStatement
    private let deleteFlag: SQLiteStatement
    private let roundFlagCount: SQLiteStatement
    private let setStatus: SQLiteStatement
    private let appendHistory: SQLiteStatement
    private let flagCounts: SQLiteStatement
    private let history: SQLiteStatement
    private let queuePage: SQLiteStatement
    private let pendingCount: SQLiteStatement
    private let deleteFlaggerFlags: SQLiteStatement
    private let deleteAuthorHistory: SQLiteStatement

    init(on connection: SQLiteConnection) throws(SQLiteError) {
        selectFlag = try connection.prepare(ModerationQueries.selectFlag(Self.sql))
        upsertFlag = try connection.prepare(ModerationQueries.upsertFlag(Self.sql))
        deleteFlag = try connection.prepare(ModerationQueries.deleteFlag(Self.sql))
        roundFlagCount = try connection.prepare(ModerationQueries.roundFlagCount(Self.sql))
        setStatus = try connection.prepare(ModerationQueries.setStatus(Self.sql))
        appendHistory = try connection.prepare(ModerationQueries.appendHistory(Self.sql))
        flagCounts = try connection.prepare(ModerationQueries.flagCounts(Self.sql))
        history = try connection.prepare(ModerationQueries.history(Self.sql))
        queuePage = try connection.prepare(ModerationQueries.queuePage(Self.sql))
        pendingCount = try connection.prepare(ModerationQueries.pendingCount)
        deleteFlaggerFlags = try connection.prepare(ModerationQueries.deleteFlaggerFlags(Self.sql))
        deleteAuthorHistory = try connection.prepare(ModerationQueries.deleteAuthorHistory(Self.sql))
    }

    func hasFlag(_ item: ItemID, _ rater: RaterID, by flagger: RaterID) throws(SQLiteError) -> Bool {
        var found = false
        try selectFlag.run(bind: { () throws(SQLiteError) in try bindKey(selectFlag, item, rater, flagger) }, row: { found = true })
        return found
    }

    /// Places or replaces the flag the request describes, or withdraws it when its reason is nil.
    func store(_ request: FlagRequest) throws(SQLiteError) {
        guard let reason = request.reason else {
            return try deleteFlag.run { () throws(SQLiteError) in try bindKey(deleteFlag, request.item, request.rater, request.flagger) }
        }
        try upsertFlag.run { () throws(SQLiteError) in
            try bindKey(upsertFlag, request.item, request.rater, request.flagger)
            try upsertFlag.bind(4, reason.rawValue)
            try upsertFlag.bind(5, request.note)
            try upsertFlag.bind(6, Int(request.nowMilliseconds))
        }
    }

    /// The flags since the review's last decision.
    func roundFlags(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> Int {
        var count = 0
        try roundFlagCount.run(bind: { () throws(SQLiteError) in try bindKey(roundFlagCount, item, rater) }, row: { count = roundFlagCount.int(0) })
        return count
    }

    /// Sets the status `entry` names and appends `entry` to the history; `decided` counts a
    /// moderator's decision (a new round of flags).
    func apply(_ entry: ModerationEntry, to item: ItemID, _ rater: RaterID, decided: Bool) throws(SQLiteError) {
        try setStatus.run { () throws(SQLiteError) in
            try bindKey(setStatus, item, rater)
            try setStatus.bind(3, entry.status.rawValue)
            try setStatus.bind(4, Int(entry.atMilliseconds))
            try setStatus.bind(5, decided ? 1 : 0)
        }
        try append(entry, to: item, rater)
    }

    /// Appends `entry` to the review's history.
    func append(_ entry: ModerationEntry, to item: ItemID, _ rater: RaterID) throws(SQLiteError) {
        try appendHistory.run { () throws(SQLiteError) in
            try bindKey(appendHistory, item, rater)
            try appendHistory.bind(3, entry.status.rawValue)
            try appendHistory.bind(4, entry.previous.rawValue)
            try appendHistory.bind(5, entry.reason)
            try appendHistory.bind(6, entry.moderator)
            try appendHistory.bind(7, Int(entry.atMilliseconds))
        }
    }

    /// The record of a review in `status`, read inside the caller's transaction.
    func record(_ item: ItemID, _ rater: RaterID, status: ReviewStatus) throws(SQLiteError) -> ModerationRecord {
        var pairs: [(String, Int)] = []
        try flagCounts.run(bind: { () throws(SQLiteError) in try bindKey(flagCounts, item, rater) },
                           row: { pairs.append((flagCounts.text(0), flagCounts.int(1))) })
        var entries: [ModerationEntry] = []
        try history.run(bind: { () throws(SQLiteError) in try bindKey(history, item, rater) }, row: {
            entries.append(ModerationQueries.entry(status: history.text(0), previous: history.text(1), reason: history.optionalText(2),
                                                   moderator: history.optionalText(3), atMilliseconds: history.int(4)))
        })
        return ModerationRecord(status: status, flags: FlagCounts(pairs), history: entries)
    }

    func queue(after position: QueuePosition?, limit: Int) throws(SQLiteError) -> ModerationQueuePage {
        var fetched: [QueuedReview] = []
        try queuePage.run(bind: { () throws(SQLiteError) in
            try queuePage.bind(1, Int(position?.pendingSinceMilliseconds ?? .min))
            try queuePage.bind(2, position?.item.rawValue ?? "")
            try queuePage.bind(3, position?.rater.rawValue ?? "")
            try queuePage.bind(4, limit + 1)
        }, row: {
            let since = ModerationQueries.queueSinceColumn
            fetched.append(QueuedReview(review: queuePage.review(), flags: FlagCounts { queuePage.int(Int32(since + 1 + $0)) },
                                        pendingSinceMilliseconds: Int64(queuePage.int(Int32(since)))))
        })
        return ModerationQueuePage(cutting: fetched, limit: limit)
    }

    func pendingReviews() throws(SQLiteError) -> Int {
        var count = 0
        try pendingCount.run(bind: {}, row: { count = pendingCount.int(0) })
        return count
    }

    /// Removes the flags a rater placed; returns how many.
    func removeFlags(placedBy flagger: RaterID) throws(SQLiteError) -> Int {
        try deleteFlaggerFlags.run { () throws(SQLiteError) in try deleteFlaggerFlags.bind(1, flagger.rawValue) }
        return deleteFlaggerFlags.changes
    }

    /// Removes the history of the rater's reviews.
    func removeHistory(ofReviewsBy author: RaterID) throws(SQLiteError) {
        try deleteAuthorHistory.run { () throws(SQLiteError) in try deleteAuthorHistory.bind(1, author.rawValue) }
    }

    private func bindKey(_ statement: SQLiteStatement, _ item: ItemID, _ rater: RaterID, _ flagger: RaterID? = nil) throws(SQLiteError) {
        try statement.bind(1, item.rawValue)
        try statement.bind(2, rater.rawValue)
        if let flagger { try statement.bind(3, flagger.rawValue) }
    }
}
