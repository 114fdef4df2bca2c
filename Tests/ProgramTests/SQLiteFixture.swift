@testable import SQLiteStore

/// Direct SQL against a database file, for preparing and checking fixtures.
enum SQLiteFixture {
    static func execute(_ path: String, _ sql: String) throws {
        try SQLiteConnection(path: path).execute(sql)
    }

    static func scalar(_ path: String, _ sql: String) throws -> String? {
        try SQLiteConnection(path: path).scalarText(sql)
    }
}

extension SQLiteFixture {
    /// Every stored rating as "item/rater" → stars, read through a fresh connection (which
    /// recovers the WAL like a restarted server would).
    static func ratings(_ path: String) throws -> [String: Int] {
        let connection = try SQLiteConnection(path: path)
        let statement = try connection.prepare("SELECT item_id, rater_id, stars FROM ratings")
        var rows: [String: Int] = [:]
        try statement.run(bind: {}) { rows["\(statement.text(0))/\(statement.text(1))"] = statement.int(2) }
        return rows
    }
}
