internal import CSQLite

/// Owns one `sqlite3*` handle. Not thread-safe by itself: each owner confines its connection to
/// one thread at a time (the writer's thread, or one reader borrowing from the pool).
final class SQLiteConnection {
    // Safe: created by sqlite3_open_v2 in init, closed only in deinit.
    let handle: OpaquePointer

    /// Process-wide settings, applied once before the first connection opens (a later call
    /// would be refused, harmlessly: the settings stay SQLite's defaults).
    private static let configured: Int32 = ratings_sqlite3_disable_memstatus()

    /// Opens the database at `path`, creating it if needed unless `readOnly` (then it must exist,
    /// and the connection never writes it).
    init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        _ = Self.configured
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, operation: "sqlite3_open_v2", message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
    }

    /// Runs a statement and returns the first column of its first row as text (for PRAGMAs).
    func scalarText(_ sql: String) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Compiles `sql` once, for reuse.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, sql) }
        return SQLiteStatement(handle: statement, connection: self, sql: sql)
    }

    /// The error for result code `rc` of `operation`, with SQLite's message.
    func error(_ rc: Int32, _ operation: String) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), operation: operation,
                    message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Applies the settings every connection of the store shares, one named step each
    /// (sqlite.org/pragma.html, sqlite.org/wal.html).
    func configure(busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        let mode: String?
        do {
            mode = try scalarText("PRAGMA journal_mode = WAL")
        } catch where error.code & 0xFF == SQLITE_READONLY || error.code & 0xFF == SQLITE_CANTOPEN {
            throw SQLiteError(code: error.code, operation: error.operation, message: "\(error.message); "
                + "the folder that holds the database must be writable by this process, which keeps the "
                + "database's -wal and -shm files beside it")
        }
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLITE_ERROR, operation: "PRAGMA journal_mode = WAL",
                              message: "the database stayed in journal mode \(mode ?? "unknown")")
        }
        // FULL syncs the WAL at every commit: an acknowledged write survives power loss, not
        // only a process crash. The store's writer alone turns it down to NORMAL, because its
        // syncer syncs the WAL before any write is acknowledged (GroupCommitWriter).
        try execute("PRAGMA synchronous = FULL")
        // 1 MiB of page cache per connection (SQLite's default is 2): hot reads are answered from
        // the summary cache, so the page cache mostly holds the B-tree's upper levels, and the
        // service's memory budget (48 MiB with 1,000 connections) is shared by every connection.
        try execute("PRAGMA cache_size = -1024")
    }
}
