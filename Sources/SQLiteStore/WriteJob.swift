/// One write waiting for the group commit: it runs inside the shared transaction, then learns
/// whether that transaction committed.
///
/// A closure rather than a generic class: the closure is made where the write's outcome type is
/// known, so the writer's thread runs specialized code only and never looks up a generic type's
/// metadata. One closure serves both steps, so a job is one allocation.
struct WriteJob: Sendable {
    private enum Step {
        case execute(WriteSession)
        case finish(failure: SQLiteError?)
    }

    /// Carries out `Step`; returns the error that aborts the batch, from `execute` only.
    private let step: @Sendable (Step) -> SQLiteError?

    /// A write of `request` whose outcome, of type `Outcome`, `body` computes and `completion`
    /// receives. The request is handed to `body` rather than captured by it, so `body` captures
    /// nothing and needs no allocation of its own.
    init<Request: Sendable, Outcome: Sendable>(_ request: Request, _ body: @escaping @Sendable (WriteSession, Request) throws -> Outcome,
                                               completion: @escaping @Sendable (Result<Outcome, any Error>) -> Void) {
        // Safe: written by `execute` on the writer's thread, read by a `finish` without failure on
        // the syncer's, which takes the job from a queue the writer put it in after `execute` (the
        // queue's lock orders the two); a `finish` with a failure leaves it be.
        nonisolated(unsafe) var result: Result<Outcome, any Error>?
        step = { step in
            switch step {
            case .execute(let session):
                do {
                    result = .success(try body(session, request))
                } catch let error as SQLiteError {
                    return error
                } catch {
                    result = .failure(error)
                }
            case .finish(let failure?):
                completion(.failure(failure))
            case .finish(nil):
                completion(result ?? .failure(SQLiteError(code: 1, operation: "group commit", message: "write was not executed")))
            }
            return nil
        }
    }

    /// Runs the write. A thrown `SQLiteError` aborts the whole batch; refusals (RatingError) are
    /// kept as this job's result, and leave nothing written because every rule checks first.
    func execute(in session: WriteSession) throws(SQLiteError) {
        if let error = step(.execute(session)) { throw error }
    }

    /// Delivers the result once the batch committed, or `failure` when it did not.
    func finish(failure: SQLiteError?) { _ = step(.finish(failure: failure)) }
}
