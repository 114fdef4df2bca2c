internal import CLibPQ

/// One statement of a pipeline: its SQL (prepared once per connection, as `query` does) and its
/// parameters as text, NULL for nil.
struct PipelinedStatement {
    let sql: String
    let parameters: [String?]

    init(_ sql: String, _ parameters: [String?] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}

extension PostgresConnection {
    /// Runs `statements` in libpq's pipeline mode: sent together and answered together, one round
    /// trip to the server for all of them. Between two syncs the server runs them in one implicit
    /// transaction, committed after the last one succeeded and rolled back as a whole when any
    /// fails (the rest are then skipped), unless one of them opened a transaction with BEGIN,
    /// which stays open for the caller to end. Answers each statement's result, in order, or
    /// throws the first statement's error.
    func pipeline(_ statements: [PipelinedStatement], deadline: Double) throws(PostgresError) -> [PostgresResult] {
        // Preparing is a round trip of its own; it happens once per statement and connection.
        for statement in statements { try prepare(statement.sql, parameterCount: statement.parameters.count, deadline: deadline) }
        let operation = statements.first?.sql ?? "pipeline"
        guard PQenterPipelineMode(handle) == 1 else { throw failure(.connection, "PQenterPipelineMode") }
        // A failure before every result is read leaves the connection mid-pipeline: it is done.
        var finished = false
        defer { if !finished { markBroken() } }
        for statement in statements {
            let name = preparedName(statement.sql) ?? ""
            let sent = statement.parameters.withOptionalCStrings { values in
                name.withCString { PQsendQueryPrepared(handle, $0, Int32(statement.parameters.count), values, nil, nil, 0) }
            }
            guard sent == 1 else { throw failure(.connection, statement.sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw failure(.connection, "PQpipelineSync") }
        countRoundTrip()
        try flush(operation: operation, until: deadline)
        var results: [PostgresResult] = []
        var firstError: PostgresError?
        for statement in statements {
            let (kept, error) = try self.results(of: statement.sql, deadline: deadline)
            if let kept { results.append(kept) }
            if firstError == nil { firstError = error }
        }
        guard let sync = try nextResult(deadline: deadline, operation: operation), PQresultStatus(sync) == PGRES_PIPELINE_SYNC else {
            throw PostgresError(kind: .connection, sqlstate: "", operation: operation, message: "the pipeline ended without its sync")
        }
        PQclear(sync)
        guard PQexitPipelineMode(handle) == 1 else { throw failure(.connection, "PQexitPipelineMode") }
        finished = true
        if let firstError { throw firstError }
        return results
    }
}
