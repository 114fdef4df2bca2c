/// One write waiting for the group commit: it runs inside the shared transaction, then learns
/// whether that transaction committed.
protocol WriteJob: AnyObject, Sendable {
    /// Runs the write. A thrown `SQLiteError` aborts the whole batch; refusals (RatingError) are
    /// kept as this job's result, and leave nothing written because every rule checks first.
    func execute(in session: WriteSession) throws(SQLiteError)
    /// Delivers the result once the batch committed, or `failure` when it did not.
    func finish(failure: SQLiteError?)
}

/// A write whose result is of type `Outcome`.
// Safe: `result` is written by `execute` and read by `finish`, both on the writer's thread only.
final class TypedWriteJob<Outcome: Sendable>: WriteJob, @unchecked Sendable {
    private let body: @Sendable (WriteSession) throws -> Outcome
    private let completion: @Sendable (Result<Outcome, any Error>) -> Void
    private var result: Result<Outcome, any Error>?

    init(_ body: @escaping @Sendable (WriteSession) throws -> Outcome,
         completion: @escaping @Sendable (Result<Outcome, any Error>) -> Void) {
        self.body = body
        self.completion = completion
    }

    func execute(in session: WriteSession) throws(SQLiteError) {
        do {
            result = .success(try body(session))
        } catch let error as SQLiteError {
            throw error
        } catch {
            result = .failure(error)
        }
    }

    func finish(failure: SQLiteError?) {
        if let failure {
            completion(.failure(failure))
        } else {
            completion(result ?? .failure(SQLiteError(code: 1, operation: "group commit", message: "write was not executed")))
        }
    }
}
