import RatingsCore

/// Brings a PostgreSQL database up to the binary's schema, whichever process gets there first:
/// an advisory lock makes every other `ratings` process wait, then find nothing pending. Each
/// migration runs in its own transaction with its bookkeeping row.
struct PostgresMigrator {
    /// The advisory lock's key (any constant; `ratings` in ASCII).
    static let lockKey = 0x72_61_74_69_6E_67_73

    let migrations: [Migration]

    /// Applies what is pending; returns the names applied now (empty when up to date).
    func migrate(_ connection: PostgresConnection, deadline: Double) throws -> [String] {
        try connection.execute("SELECT pg_advisory_lock(\(Self.lockKey))", deadline: deadline)
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.lockKey))", deadline: deadline) }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       text        NOT NULL PRIMARY KEY,
                checksum   text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, deadline: deadline)
        let rows = try connection.query("SELECT name, checksum FROM schema_migrations", deadline: deadline)
        var recorded: [String: String] = [:]
        for row in 0..<rows.rowCount { recorded[rows.text(row, 0)] = rows.text(row, 1) }
        var applied: [String] = []
        for migration in try Migration.pending(migrations, recorded: recorded) {
            try connection.execute("BEGIN", deadline: deadline)
            do {
                try connection.execute(migration.sql, deadline: deadline)
                try connection.query("INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)",
                                     [migration.name, migration.checksum], deadline: deadline)
                try connection.execute("COMMIT", deadline: deadline)
            } catch {
                _ = try? connection.execute("ROLLBACK", deadline: deadline)
                throw error
            }
            applied.append(migration.name)
        }
        return applied
    }
}
