import RatingsCore

/// Brings a PostgreSQL database up to the binary's schema, whichever process gets there first:
/// an advisory lock makes every other `ratings` process wait, then find nothing pending. Each
/// migration runs in its own transaction with its bookkeeping row. Under the same lock, a server
/// also makes the shared settings ready (see `prepareSettings`).
struct PostgresMigrator {
    /// The advisory lock's key (any constant; `ratings` in ASCII).
    static let lockKey = 0x72_61_74_69_6E_67_73

    let migrations: [Migration]

    /// Runs `body` holding the migrations' advisory lock.
    static func locked<T>(_ connection: PostgresConnection, deadline: Double, _ body: () throws -> T) throws -> T {
        try connection.execute("SELECT pg_advisory_lock(\(lockKey))", deadline: deadline)
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(lockKey))", deadline: deadline) }
        return try body()
    }

    /// Applies what is pending; returns the names applied now (empty when up to date). Call it
    /// holding the lock (`locked`).
    func migrate(_ connection: PostgresConnection, deadline: Double) throws -> [String] {
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       text        NOT NULL PRIMARY KEY,
                checksum   text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, deadline: deadline)
        let recorded = try connection.recordedChecksums(deadline: deadline)
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

extension PostgresConnection {
    /// The migrations the database records, name → checksum.
    func recordedChecksums(deadline: Double) throws(PostgresError) -> [String: String] {
        let rows = try query("SELECT name, checksum FROM schema_migrations", deadline: deadline)
        var recorded: [String: String] = [:]
        for row in 0..<rows.rowCount { recorded[rows.text(row, 0)] = rows.text(row, 1) }
        return recorded
    }
}

/// Makes the database's shared settings ready before a server serves: the cursor secret exists,
/// and every stored score key was computed with `ranking` (re-scoring every rated item once, in
/// one transaction, when the settings changed). Call it holding the migrations' lock, so
/// replicas starting together do it once. Returns the cursor secret. A database an unfinished
/// `ratings copy` left (`name` in the error) is refused.
func prepareSettings(_ connection: PostgresConnection, ranking: RankingSettings, name: String, deadline: Double) throws -> [UInt8] {
    try connection.execute("BEGIN", deadline: deadline)
    do {
        if let marker = try connection.setting(SharedSettings.copyIncompleteName) {
            throw DatabaseCopyError.destinationIncomplete(name, marker: marker)
        }
        try connection.query(PostgresSQL.insertSetting, [SharedSettings.cursorSecretName, SharedSettings.newCursorSecret()], deadline: deadline)
        let secret = try connection.query(PostgresSQL.selectSetting, [SharedSettings.cursorSecretName], deadline: deadline)
        let recorded = try connection.query(PostgresSQL.selectSetting, [SharedSettings.rankingName], deadline: deadline)
        if recorded.rowCount == 0 || recorded.text(0, 0) != ranking.recorded {
            let inputs = try connection.query(PostgresSQL.selectScoreInputs, deadline: deadline)
            var ids: [String] = [], highs: [Int?] = [], lows: [Int?] = []
            for row in 0..<inputs.rowCount {
                let key = ranking.key(count: inputs.int(row, 2), sum: inputs.int(row, 3),
                                      scale: (try? Scale(maxRating: inputs.int(row, 1))) ?? .standard)
                ids.append(inputs.text(row, 0))
                highs.append(key.high)
                lows.append(key.low)
            }
            try connection.query(PostgresSQL.setScores, [PostgresSQL.textArray(ids), PostgresSQL.integerArray(highs),
                                                         PostgresSQL.integerArray(lows)], deadline: deadline)
            try connection.query(PostgresSQL.replaceSetting, [SharedSettings.rankingName, ranking.recorded], deadline: deadline)
        }
        try connection.execute("COMMIT", deadline: deadline)
        guard let bytes = SharedSettings.secretBytes(secret.text(0, 0)) else {
            throw PostgresError(kind: .server, sqlstate: "", operation: "settings", message: "the stored cursor secret is not hexadecimal")
        }
        return bytes
    } catch {
        _ = try? connection.execute("ROLLBACK", deadline: deadline)
        throw error
    }
}
