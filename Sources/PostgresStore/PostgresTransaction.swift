/// A transaction on one pooled connection whose statements reach the server in as few round
/// trips as the write's logic allows: BEGIN travels with the first statements, a statement whose
/// result can wait (`send`) travels with the next one that must be answered (`query`,
/// `queries`) or with COMMIT, and the last statement of a write may carry COMMIT with it. The
/// server runs them in the order they were given, each seeing the ones before, exactly as if
/// each had been a round trip of its own (libpq's pipeline mode, `PostgresConnection.pipeline`).
final class PostgresTransaction {
    let connection: PostgresConnection
    let deadline: Double
    private var queued: [PipelinedStatement]
    /// The replies of queued statements, by their position in `queued`.
    private var replies: [(position: Int, reply: DeferredResult)] = []
    /// Whether BEGIN has reached the server (so a failure leaves a transaction to roll back).
    private(set) var hasBegun = false
    private(set) var isCommitted = false

    init(_ connection: PostgresConnection, begin: String = "BEGIN", deadline: Double) {
        self.connection = connection
        self.deadline = deadline
        queued = [PipelinedStatement(begin)]
    }

    /// Queues a statement; it runs with the next round trip, and `reply` holds its result after.
    @discardableResult
    func send(_ sql: String, _ parameters: [String?] = []) -> DeferredResult {
        let reply = DeferredResult(sql: sql)
        replies.append((queued.count, reply))
        queued.append(PipelinedStatement(sql, parameters))
        return reply
    }

    /// Queues several statements whose results the write does not read.
    func send(_ statements: [PipelinedStatement]) {
        queued += statements
    }

    /// Runs what is queued and then `sql` in one round trip, and answers `sql`'s result. With
    /// `commit`, COMMIT follows in the same round trip and the transaction is over.
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = [], commit: Bool = false) throws(PostgresError) -> PostgresResult {
        try queries([PipelinedStatement(sql, parameters)], commit: commit)[0]
    }

    /// Runs what is queued and then `statements` in one round trip, and answers their results
    /// in order. With `commit`, COMMIT follows in the same round trip and the transaction is over.
    func queries(_ statements: [PipelinedStatement], commit: Bool = false) throws(PostgresError) -> [PostgresResult] {
        guard !isCommitted else {
            throw PostgresError(kind: .server, sqlstate: "", operation: statements.first?.sql ?? "COMMIT",
                                message: "a statement was sent after its transaction committed")
        }
        let first = queued.count
        var all = queued + statements
        if commit { all.append(PipelinedStatement("COMMIT")) }
        let waiting = replies
        queued = []
        replies = []
        hasBegun = true
        let results = try connection.pipeline(all, deadline: deadline)
        for (position, reply) in waiting { reply.result = results[position] }
        isCommitted = commit
        return Array(results[first..<first + statements.count])
    }

    /// Commits, with whatever is still queued, unless the write's last statement already did.
    func commit() throws(PostgresError) {
        guard !isCommitted else { return }
        // A write that sent nothing has no transaction on the server to end.
        guard hasBegun || queued.count > 1 else {
            isCommitted = true
            return
        }
        _ = try queries([], commit: true)
    }

    /// Ends a transaction that failed: nothing to do when nothing reached the server or the
    /// connection is gone.
    func rollBack() {
        guard hasBegun, !connection.isBroken else { return }
        _ = try? connection.execute("ROLLBACK", deadline: deadline)
    }
}

/// The result of a statement sent without waiting (`PostgresTransaction.send`), there once the
/// round trip that carried it has been answered.
final class DeferredResult {
    private let sql: String
    fileprivate var result: PostgresResult?

    fileprivate init(sql: String) { self.sql = sql }

    /// The statement's result; an error when it has not been run yet, which is a mistake in the
    /// write's order, never the database's.
    func get() throws(PostgresError) -> PostgresResult {
        guard let result else {
            throw PostgresError(kind: .server, sqlstate: "", operation: sql, message: "the result was read before its statement ran")
        }
        return result
    }
}
