import Glibc
public import RatingsCore

/// A SQLite database read by `ratings copy`: one read transaction on a read-only connection, so
/// every table comes from the same WAL snapshot while a server keeps writing, and the server's
/// writer never waits for it.
public final class SQLiteCopySource: CopySource {
    private let connection: SQLiteConnection

    /// Opens `path` and takes the snapshot; refuses a file that is missing, is not a ratings
    /// database, lacks this binary's migrations or holds an unfinished copy.
    public init(path: String) throws {
        guard access(path, F_OK) == 0 else { throw DatabaseCopyError.missing(path) }
        connection = try SQLiteConnection(path: path, readOnly: true)
        try connection.execute("PRAGMA busy_timeout = 5000")
        try connection.execute("BEGIN")
        guard try connection.holdsMigrations() else {
            throw DatabaseCopyError.notARatingsDatabase(path)
        }
        let pending = try Migration.pending(SQLiteRatingStore.migrations, recorded: connection.recordedChecksums())
        guard pending.isEmpty else { throw DatabaseCopyError.sourceOutdated(path, pending: pending.map(\.name)) }
        if let marker = try connection.setting(SharedSettings.copyIncompleteName) {
            throw DatabaseCopyError.sourceIncomplete(path, marker: marker)
        }
    }

    public func columns(of table: CopiedTable) throws -> [String] { try connection.columns(of: table) }

    public func rowCount(of table: CopiedTable) throws -> Int { try connection.rowCount(of: table) }

    public func rows(of table: CopiedTable, columns: [String], _ each: (CopiedRow) throws -> Void) throws {
        let select = try connection.prepare("SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))")
        defer { select.reset() }
        let width = Int32(columns.count)
        while try select.step() {
            var row = CopiedRow()
            row.reserveCapacity(columns.count)
            for column in 0..<width { row.append(select.copiedValue(column)) }
            try each(row)
        }
    }
}

/// A SQLite database written by `ratings copy`: claimed for the copy as `serve` claims it (so
/// no server opens it meanwhile), migrated, then filled in transactions of many rows each. The
/// incomplete-copy marker is committed before the first row and removed with the last, so a
/// copy stopped anywhere leaves a database that says so.
public final class SQLiteCopyDestination: CopyDestination {
    /// Rows per transaction: few enough commits that syncing costs little, few enough rows that
    /// the WAL stays a fraction of the database.
    private static let rowsPerTransaction = 100_000

    private let path: String
    private let ownership: FileOwnership
    private let connection: SQLiteConnection
    private var inserts: [String: SQLiteStatement] = [:]
    private var rowsInTransaction = 0

    /// Claims, opens (creating it) and migrates `path`.
    public init(path: String) throws {
        self.path = path
        ownership = try FileOwnership(path: path)
        (connection, _) = try SQLiteRatingStore.openMigrated(SQLiteStoreConfiguration(path: path))
        // A commit is synced by the checkpoint at the end rather than one by one; until the
        // marker's removal is durable, the database says it is incomplete.
        try connection.execute("PRAGMA synchronous = NORMAL")
    }

    public func columns(of table: CopiedTable) throws -> [String] { try connection.columns(of: table) }

    public func begin(marker: String, discarding: Bool) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let state = DestinationState(items: try connection.rowCount(of: "items"), events: try connection.rowCount(of: "webhook_outbox"),
                                         incompleteCopy: try connection.setting(SharedSettings.copyIncompleteName))
            if let refusal = state.refusal(name: path, discarding: discarding) { throw refusal }
            for table in CopiedTables.all.reversed() { try connection.execute("DELETE FROM \(table.name)") }
            let insert = try connection.prepare(RatingSQL.insertSetting)
            try insert.run { () throws(SQLiteError) in
                try insert.bind(1, SharedSettings.copyIncompleteName)
                try insert.bind(2, marker)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        try connection.execute("BEGIN IMMEDIATE")
    }

    public func write(_ rows: [CopiedRow], to table: CopiedTable, columns: [String]) throws {
        let insert = try statement(for: table, columns: columns)
        for row in rows {
            try insert.run { () throws(SQLiteError) in
                for (index, value) in row.enumerated() { try insert.bind(Int32(index + 1), value) }
            }
        }
        rowsInTransaction += rows.count
        if rowsInTransaction >= Self.rowsPerTransaction {
            try connection.execute("COMMIT; BEGIN IMMEDIATE")
            rowsInTransaction = 0
        }
    }

    public func finish(_ table: CopiedTable) throws {
        inserts[table.name] = nil
    }

    public func finish() throws {
        try connection.execute("DELETE FROM settings WHERE name = '\(SharedSettings.copyIncompleteName)'; COMMIT")
        // Moves the copy from the WAL into the file and syncs it: the copy is durable on return.
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    public func count() throws -> CopyCount {
        var stored: [String: ItemTally] = [:], counted: [String: ItemTally] = [:], rows: [String: Int] = [:]
        let items = try connection.prepare(CopyQueries.storedTallies)
        try items.run(bind: {}) { stored[items.text(0)] = items.tally() }
        let ratings = try connection.prepare(CopyQueries.countedTallies)
        try ratings.run(bind: {}) { counted[ratings.text(0)] = ratings.tally() }
        for table in CopiedTables.all { rows[table.name] = try connection.rowCount(of: table.name) }
        return CopyCount(stored: stored, counted: counted, rows: rows)
    }

    private func statement(for table: CopiedTable, columns: [String]) throws(SQLiteError) -> SQLiteStatement {
        if let known = inserts[table.name] { return known }
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let insert = try connection.prepare("INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        inserts[table.name] = insert
        return insert
    }
}

extension SQLiteConnection {
    fileprivate func columns(of table: CopiedTable) throws(SQLiteError) -> [String] {
        let info = try prepare("SELECT name FROM pragma_table_info('\(table.name)') ORDER BY cid")
        var names: [String] = []
        try info.run(bind: {}) { names.append(info.text(0)) }
        return names
    }

    fileprivate func rowCount(of table: CopiedTable) throws(SQLiteError) -> Int { try rowCount(of: table.name) }

    fileprivate func rowCount(of table: String) throws(SQLiteError) -> Int {
        Int(try scalarText("SELECT count(*) FROM \(table)") ?? "") ?? 0
    }
}

extension SQLiteStatement {
    /// Columns 1…12 of the row as an item's tally: count, sum, then each star's count.
    fileprivate func tally() -> ItemTally {
        ItemTally(count: int(1), sum: int(2), stars: (3...12).map { int(Int32($0)) })
    }
}
