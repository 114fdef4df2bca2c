/// One write waiting for the group commit: it runs inside the shared transaction, then learns
/// whether that transaction committed.
///
/// A pair of closures rather than a generic class: the closures are made where the write's
/// outcome type is known, so the writer's thread runs specialized code only. A generic class
/// looked up its `Result` field's metadata at run time in `execute`, in `finish` and again in its
/// deinit, about 2,000 instructions a write.
struct WriteJob: Sendable {
    private let run: @Sendable (WriteSession) throws(SQLiteError) -> Void
    private let deliver: @Sendable (SQLiteError?) -> Void

    /// A write whose outcome, of type `Outcome`, `body` computes and `completion` receives.
    init<Outcome: Sendable>(_ body: @escaping @Sendable (WriteSession) throws -> Outcome,
                            completion: @escaping @Sendable (Result<Outcome, any Error>) -> Void) {
        // Safe: written by `run` and read by `deliver`, both on the writer's thread, one after the other.
        nonisolated(unsafe) var result: Result<Outcome, any Error>?
        run = { session throws(SQLiteError) in
            do {
                result = .success(try body(session))
            } catch let error as SQLiteError {
                throw error
            } catch {
                result = .failure(error)
            }
        }
        deliver = { failure in
            if let failure {
                completion(.failure(failure))
            } else {
                completion(result ?? .failure(SQLiteError(code: 1, operation: "group commit", message: "write was not executed")))
            }
        }
    }

    /// Runs the write. A thrown `SQLiteError` aborts the whole batch; refusals (RatingError) are
    /// kept as this job's result, and leave nothing written because every rule checks first.
    func execute(in session: WriteSession) throws(SQLiteError) { try run(session) }

    /// Delivers the result once the batch committed, or `failure` when it did not.
    func finish(failure: SQLiteError?) { deliver(failure) }
}
