import RatingsCore

/// Brings a database up to the binary's schema: each pending migration in its own transaction,
/// together with its bookkeeping row (name, checksum, time). Refuses a database whose applied
/// migrations were edited or come from a newer binary.
struct Migrator {
    let migrations: [Migration]

    /// Applies what is pending; returns the names applied now (empty when up to date).
    func migrate(_ connection: SQLiteConnection) throws -> [String] {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       TEXT    NOT NULL PRIMARY KEY,
                checksum   TEXT    NOT NULL,
                applied_at INTEGER NOT NULL DEFAULT (unixepoch())
            ) WITHOUT ROWID
            """)
        var applied: [String] = []
        for migration in migrations {
            // IMMEDIATE takes the write lock first, so two processes starting together serialize.
            try connection.execute("BEGIN IMMEDIATE")
            do {
                // Checked again inside each transaction: another process may have moved on.
                if try Migration.pending(migrations, recorded: connection.recordedChecksums()).contains(migration) {
                    try connection.execute(migration.sql)
                    let insert = try connection.prepare("INSERT INTO schema_migrations (name, checksum) VALUES (?1, ?2)")
                    try insert.run { () throws(SQLiteError) in
                        try insert.bind(1, migration.name)
                        try insert.bind(2, migration.checksum)
                    }
                    applied.append(migration.name)
                }
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
        return applied
    }
}

extension SQLiteConnection {
    /// Whether the database has the migrations' bookkeeping table: whether it is a ratings database.
    func holdsMigrations() throws(SQLiteError) -> Bool {
        try scalarText("SELECT count(*) FROM sqlite_master WHERE name = 'schema_migrations'") == "1"
    }

    /// The migrations the database records, name → checksum.
    func recordedChecksums() throws(SQLiteError) -> [String: String] {
        let select = try prepare("SELECT name, checksum FROM schema_migrations")
        var rows: [String: String] = [:]
        try select.run(bind: {}) { rows[select.text(0)] = select.text(1) }
        return rows
    }
}
