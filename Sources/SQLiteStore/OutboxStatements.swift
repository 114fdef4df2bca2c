import RatingsCore

/// The outbox statements of one connection, prepared once, each behind a typed call: the
/// writer's session records events and runs claims, finishes and prunes (every one a write, so
/// the writer runs them); a read connection reads the totals.
final class OutboxStatements {
    private static let sql: OutboxQueries.Parameter = { position, _ in "?\(position)" }

    private let bumpVersion: SQLiteStatement
    private let selectVersion: SQLiteStatement
    private let insert: SQLiteStatement
    private let insertMany: SQLiteStatement
    private let claim: SQLiteStatement
    private let finish: SQLiteStatement
    private let prune: SQLiteStatement
    private let abandon: SQLiteStatement
    private let totals: SQLiteStatement
    private let pending: SQLiteStatement
    private let lastError: SQLiteStatement

    init(on connection: SQLiteConnection) throws(SQLiteError) {
        bumpVersion = try connection.prepare(OutboxQueries.bumpVersion(Self.sql))
        selectVersion = try connection.prepare(OutboxQueries.selectVersion(Self.sql))
        insert = try connection.prepare(OutboxQueries.insert(Self.sql))
        insertMany = try connection.prepare(OutboxQueries.insert(rows: Self.rowsPerInsert, Self.sql))
        claim = try connection.prepare(OutboxQueries.claim(Self.sql, lock: ""))
        finish = try connection.prepare(OutboxQueries.finish(Self.sql))
        prune = try connection.prepare(OutboxQueries.prune(Self.sql))
        abandon = try connection.prepare(OutboxQueries.abandon(Self.sql))
        totals = try connection.prepare(OutboxQueries.totals)
        pending = try connection.prepare(OutboxQueries.pending)
        lastError = try connection.prepare(OutboxQueries.lastError(Self.sql))
    }

    /// Moves the item's version on by one and answers the new one.
    func nextVersion(of item: ItemID) throws(SQLiteError) -> Int64 {
        try bumpVersion.run { () throws(SQLiteError) in try bumpVersion.bind(1, item.rawValue) }
        var version: Int64 = 0
        try selectVersion.run(bind: { () throws(SQLiteError) in try selectVersion.bind(1, item.rawValue) },
                              row: { version = Int64(selectVersion.int(0)) })
        return version
    }

    /// Inserts `entries`, `insertMany`'s rows at a time and the rest one by one.
    func append(_ entries: [OutboxEntry]) throws(SQLiteError) {
        var start = 0
        while entries.count - start >= Self.rowsPerInsert {
            try insertMany.run { () throws(SQLiteError) in
                for row in 0..<Self.rowsPerInsert { try bind(entries[start + row], to: insertMany, from: Int32(row * 5)) }
            }
            start += Self.rowsPerInsert
        }
        for entry in entries[start...] {
            try insert.run { () throws(SQLiteError) in try bind(entry, to: insert, from: 0) }
        }
    }

    /// Binds one row's five values to parameters `offset + 1` to `offset + 5`.
    private func bind(_ entry: OutboxEntry, to statement: SQLiteStatement, from offset: Int32) throws(SQLiteError) {
        try statement.bind(offset + 1, entry.eventID)
        try statement.bind(offset + 2, entry.endpoint)
        try statement.bind(offset + 3, entry.type.rawValue)
        try statement.bind(offset + 4, entry.payload)
        try statement.bind(offset + 5, Int(entry.createdAtMilliseconds))
    }

    /// Rows one `insertMany` writes.
    static let rowsPerInsert = 16

    func claim(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64) throws(SQLiteError) -> [OutboxDelivery] {
        var claimed: [OutboxDelivery] = []
        try claim.run(bind: { () throws(SQLiteError) in
            try claim.bind(1, Int(nowMilliseconds))
            try claim.bind(2, Int(nowMilliseconds + leaseMilliseconds))
            try claim.bind(3, limit)
            try claim.bind(4, endpoint)
        }, row: {
            let entry = OutboxEntry(eventID: claim.text(1), endpoint: claim.text(2), type: EventType(rawValue: claim.text(3)) ?? .raterErased,
                                    payload: claim.text(4), createdAtMilliseconds: Int64(claim.int(5)))
            claimed.append(OutboxDelivery(id: Int64(claim.int(0)), entry: entry, attempts: claim.int(6),
                                          firstAttemptMilliseconds: claim.optionalText(7).flatMap { Int64($0) }))
        })
        return claimed.sorted { $0.id < $1.id }
    }

    func finish(_ result: DeliveryResult) throws(SQLiteError) {
        let (state, due, finished) = OutboxQueries.finishParameters(result)
        let failedAttempt = result.outcome != .delivered
        try finish.run { () throws(SQLiteError) in
            try finish.bind(1, Int(result.delivery))
            try finish.bind(2, state)
            try finish.bind(3, Int(result.firstAttemptMilliseconds))
            try finish.bind(4, Int(due))
            try finish.bind(5, finished.map { Int($0) })
            try finish.bind(6, failedAttempt ? Int(result.attemptedAtMilliseconds) : nil)
            try finish.bind(7, result.status)
            try finish.bind(8, result.error)
        }
    }

    func abandon(for endpoint: String, nowMilliseconds: Int64, reason: String) throws(SQLiteError) -> Int {
        try abandon.run { () throws(SQLiteError) in
            try abandon.bind(1, endpoint)
            try abandon.bind(2, Int(nowMilliseconds))
            try abandon.bind(3, reason)
        }
        return abandon.changes
    }

    /// Removes up to `OutboxQueries.pruneBatch` rows; answers how many.
    func prune(finishedBefore milliseconds: Int64) throws(SQLiteError) -> Int {
        try prune.run { () throws(SQLiteError) in
            try prune.bind(1, Int(milliseconds))
            try prune.bind(2, OutboxQueries.pruneBatch)
        }
        return prune.changes
    }

    func totalsByEndpoint() throws(SQLiteError) -> [String: DeliveryTotals] {
        var totals: [String: DeliveryTotals] = [:]
        try self.totals.run(bind: {}, row: {
            totals[self.totals.text(0), default: DeliveryTotals()].add(self.totals.int(2), in: self.totals.text(1))
        })
        for endpoint in totals.keys {
            try lastError.run(bind: { () throws(SQLiteError) in try lastError.bind(1, endpoint) }, row: {
                totals[endpoint]?.lastError = DeliveryError(atMilliseconds: Int64(lastError.int(0)),
                                                            status: lastError.optionalText(1).flatMap { Int($0) },
                                                            error: lastError.optionalText(2))
            })
        }
        return totals
    }

    func pendingByEndpoint() throws(SQLiteError) -> [String: Int] {
        var counts: [String: Int] = [:]
        try pending.run(bind: {}, row: { counts[pending.text(0)] = pending.int(1) })
        return counts
    }
}
