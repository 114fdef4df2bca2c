import RatingsCore

/// Makes the file's shared settings ready before the store serves: the cursor secret exists,
/// and every stored score key was computed with the configured ranking settings (re-scoring
/// every rated item once, in one transaction, when they changed). A file an unfinished
/// `ratings copy` left is refused.
struct SettingsSetup {
    let connection: SQLiteConnection
    let ranking: RankingSettings
    /// How errors name the database.
    let name: String

    /// Returns the cursor secret.
    func run() throws -> [UInt8] {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            if let marker = try connection.setting(SharedSettings.copyIncompleteName) {
                throw DatabaseCopyError.destinationIncomplete(name, marker: marker)
            }
            let insert = try connection.prepare(RatingSQL.insertSetting)
            try insert.run { () throws(SQLiteError) in
                try insert.bind(1, SharedSettings.cursorSecretName)
                try insert.bind(2, SharedSettings.newCursorSecret())
            }
            let secret = try connection.setting(SharedSettings.cursorSecretName).flatMap(SharedSettings.secretBytes)
            if try connection.setting(SharedSettings.rankingName) != ranking.recorded { try rescore() }
            try connection.execute("COMMIT")
            guard let secret else {
                throw SQLiteError(code: 1, operation: "settings", message: "the stored cursor secret is not hexadecimal")
            }
            return secret
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    private func rescore() throws(SQLiteError) {
        let inputs = try connection.prepare(RatingSQL.selectScoreInputs)
        var keys: [(item: String, high: Int?, low: Int?)] = []
        try inputs.run(bind: {}, row: {
            let scale = (try? Scale(maxRating: inputs.int(1))) ?? .standard
            let key = ranking.key(count: inputs.int(2), sum: inputs.int(3), scale: scale)
            keys.append((inputs.text(0), key.high, key.low))
        })
        let update = try connection.prepare(RatingSQL.setScore)
        for key in keys {
            try update.run { () throws(SQLiteError) in
                try update.bind(1, key.item)
                try update.bind(2, key.high)
                try update.bind(3, key.low)
            }
        }
        let record = try connection.prepare(RatingSQL.replaceSetting)
        try record.run { () throws(SQLiteError) in
            try record.bind(1, SharedSettings.rankingName)
            try record.bind(2, ranking.recorded)
        }
    }
}

extension SQLiteConnection {
    /// The value of settings row `name`, nil when there is none.
    func setting(_ name: String) throws(SQLiteError) -> String? {
        let select = try prepare(RatingSQL.selectSetting)
        var found: String?
        try select.run(bind: { () throws(SQLiteError) in try select.bind(1, name) }, row: { found = select.text(0) })
        return found
    }
}
