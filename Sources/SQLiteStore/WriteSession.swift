internal import CSQLite
import RatingsCore

/// The writer's statements (which keep its connection open) and the rules of each write as SQL
/// steps. Used only on the writer's thread, always inside a transaction the writer opened (but for
/// the checkpoint that empties the WAL when the service stops).
final class WriteSession {
    /// The writer's `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`.
    let transaction: TransactionStatements
    private let selectItem: SQLiteStatement
    private let insertItem: SQLiteStatement
    private let setScale: SQLiteStatement
    private let selectRating: SQLiteStatement
    private let upsertRating: SQLiteStatement
    private let deleteRating: SQLiteStatement
    private let applyDelta: SQLiteStatement
    private let selectRaterRatings: SQLiteStatement
    private let deleteRaterRatings: SQLiteStatement
    private let emptyWALCheckpoint: SQLiteStatement
    private let ranking: RankingSettings
    /// Rows changed by the transaction under way, for the cache once it commits. Keyed by the
    /// item, whose hash was computed once when the request was read: a key of text would hash it
    /// here and again in the cache.
    private var changedRows: [ItemID: SummaryRow] = [:]

    init(connection: SQLiteConnection, ranking: RankingSettings) throws(SQLiteError) {
        self.ranking = ranking
        transaction = try TransactionStatements(on: connection, beginSQL: "BEGIN IMMEDIATE")
        selectRaterRatings = try connection.prepare(RatingSQL.selectRaterRatings)
        deleteRaterRatings = try connection.prepare(RatingSQL.deleteRaterRatings)
        selectItem = try connection.prepare(RatingSQL.selectItem)
        insertItem = try connection.prepare(RatingSQL.insertItem)
        setScale = try connection.prepare(RatingSQL.setScale)
        selectRating = try connection.prepare(RatingSQL.selectRating)
        upsertRating = try connection.prepare(RatingSQL.upsertRating)
        deleteRating = try connection.prepare(RatingSQL.deleteRating)
        applyDelta = try connection.prepare(RatingSQL.applyDelta)
        emptyWALCheckpoint = try connection.prepare(RatingSQL.emptyWAL)
    }

    /// Copies every frame of the WAL into the database file and truncates the WAL to nothing;
    /// outside any transaction. Fails when a reader's snapshot kept part of the WAL in use.
    func emptyWAL() throws(SQLiteError) {
        var blocked = 0
        try emptyWALCheckpoint.run(bind: {}, row: { blocked = emptyWALCheckpoint.int(0) })
        guard blocked == 0 else {
            throw SQLiteError(code: SQLITE_BUSY, operation: RatingSQL.emptyWAL,
                              message: "a reader still held part of the WAL; SQLite applies what is left when the file is next opened")
        }
    }

    /// Validates before writing anything, so a refused rating leaves the transaction untouched.
    func submit(_ request: SubmitRequest) throws -> SubmitOutcome {
        let row = try item(request.item)
        let scale = row?.scale ?? request.defaultScale
        let stars = try Stars(request.stars, on: scale)
        if row == nil { try insert(request.item, scale: scale, explicit: false) }
        let previous = try storedStars(request.item, request.rater)
        try upsertRating.run { () throws(SQLiteError) in
            try upsertRating.bind(1, request.item.rawValue)
            try upsertRating.bind(2, request.rater.rawValue)
            try upsertRating.bind(3, stars.count)
            try upsertRating.bind(4, Int(request.nowMilliseconds))
        }
        let summary = try move(request.item, from: row ?? .unrated(on: scale, isScaleExplicit: false), into: stars.count, outOf: previous)
        let rating = Rating(item: request.item, rater: request.rater, stars: stars, scale: scale,
                            updatedAtMilliseconds: request.nowMilliseconds)
        return SubmitOutcome(rating: rating, created: previous == nil, summary: summary)
    }

    func clear(_ request: ClearRequest) throws -> ClearOutcome {
        let row = try item(request.item)
        guard let row, let previous = try storedStars(request.item, request.rater) else {
            return ClearOutcome(cleared: false, summary: row?.summary(of: request.item) ?? .empty(request.item, on: request.defaultScale))
        }
        try deleteRating.run { () throws(SQLiteError) in
            try deleteRating.bind(1, request.item.rawValue)
            try deleteRating.bind(2, request.rater.rawValue)
        }
        return ClearOutcome(cleared: true, summary: try move(request.item, from: row, into: nil, outOf: previous))
    }

    /// Removes every rating of the rater, item by item updating aggregates and scores, all in the
    /// transaction the writer opened; returns how many were removed.
    func erase(_ rater: RaterID) throws -> Int {
        var ratings: [(item: ItemID, stars: Int)] = []
        try selectRaterRatings.run(bind: { () throws(SQLiteError) in try selectRaterRatings.bind(1, rater.rawValue) },
                                   row: { ratings.append((ItemID(stored: selectRaterRatings.text(0)), selectRaterRatings.int(1))) })
        for (item, stars) in ratings {
            guard let row = try self.item(item) else { continue }
            _ = try move(item, from: row, into: nil, outOf: stars)
        }
        try deleteRaterRatings.run { () throws(SQLiteError) in try deleteRaterRatings.bind(1, rater.rawValue) }
        return ratings.count
    }

    /// Checks for a conflict before writing anything, like `submit`.
    func configure(_ request: ConfigureRequest) throws -> ConfigureOutcome {
        let row = try item(request.item)
        if let row, row.count > 0, row.scale != request.scale {
            throw RatingError.scaleConflict(current: row.scale, requested: request.scale, ratingCount: row.count)
        }
        if row == nil {
            try insert(request.item, scale: request.scale, explicit: true)
        } else {
            try setScale.run { () throws(SQLiteError) in
                try setScale.bind(1, request.item.rawValue)
                try setScale.bind(2, request.scale.maxRating)
            }
        }
        guard let updated = try item(request.item) else {
            throw SQLiteError(code: 1, operation: RatingSQL.selectItem, message: "the item row vanished inside its transaction")
        }
        changedRows[request.item] = updated
        return ConfigureOutcome(created: !(row?.isScaleExplicit ?? false), summary: updated.summary(of: request.item))
    }

    /// The rows the last transaction changed, for the cache once it is durable (or to forget
    /// after a ROLLBACK); the next transaction starts with none, in room of the same size.
    func takeChangedRows() -> [ItemID: SummaryRow] {
        let rows = changedRows
        changedRows.removeAll(keepingCapacity: true)
        return rows
    }

    private func item(_ item: ItemID) throws(SQLiteError) -> SummaryRow? {
        try selectItem.summaryRow { () throws(SQLiteError) in try selectItem.bind(1, item.rawValue) }
    }

    private func insert(_ item: ItemID, scale: Scale, explicit: Bool) throws(SQLiteError) {
        try insertItem.run { () throws(SQLiteError) in
            try insertItem.bind(1, item.rawValue)
            try insertItem.bind(2, scale.maxRating)
            try insertItem.bind(3, explicit ? 1 : 0)
        }
    }

    private func storedStars(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> Int? {
        var stars: Int?
        try selectRating.run(bind: { () throws(SQLiteError) in
            try selectRating.bind(1, item.rawValue)
            try selectRating.bind(2, rater.rawValue)
        }, row: { stars = selectRating.int(0) })
        return stars
    }

    /// Updates count, sum, histogram and score key in the same transaction as the rating row,
    /// from the item's row as it was (read or inserted in this transaction) and the change. The
    /// new row is computed here rather than returned by the UPDATE: this writer is the file's
    /// only one and holds its lock, so the row it read is the row the UPDATE changes, and SQLite
    /// builds a temporary table for every RETURNING (a third of the C reference's user time per rating).
    private func move(_ item: ItemID, from row: SummaryRow, into new: Int?, outOf old: Int?) throws(SQLiteError) -> ItemSummary {
        let updated = row.moving(into: new, outOf: old)
        let key = ranking.key(count: updated.count, sum: updated.sum, scale: updated.scale)
        try applyDelta.run { () throws(SQLiteError) in
            try applyDelta.bind(1, item.rawValue)
            try applyDelta.bind(2, new)
            try applyDelta.bind(3, old)
            try applyDelta.bind(4, key.high)
            try applyDelta.bind(5, key.low)
        }
        guard applyDelta.changes == 1 else {
            throw SQLiteError(code: 1, operation: RatingSQL.applyDelta, message: "the item row vanished inside its transaction")
        }
        changedRows[item] = updated
        return updated.summary(of: item)
    }
}
