/// One connection's transaction control, compiled once and reused, since `sqlite3_exec` parses
/// `BEGIN` and `COMMIT` again at every call: the writer's group commits and a batch read's
/// snapshot run prepared statements only. The statements keep their connection open.
final class TransactionStatements {
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let rollback: SQLiteStatement

    /// `beginSQL` is `BEGIN` for a reader's snapshot, `BEGIN IMMEDIATE` for the writer.
    init(on connection: SQLiteConnection, beginSQL: String) throws(SQLiteError) {
        begin = try connection.prepare(beginSQL)
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
    }

    func beginTransaction() throws(SQLiteError) { try begin.run(bind: {}) }
    func commitTransaction() throws(SQLiteError) { try commit.run(bind: {}) }
    func rollbackTransaction() throws(SQLiteError) { try rollback.run(bind: {}) }
}
