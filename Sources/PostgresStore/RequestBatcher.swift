import Locking

/// Requests of one kind that wait for a pool worker together: the first to arrive while none
/// wait queues one pool job, and that job, when a worker takes it, runs every request waiting by
/// then (up to `limit`) as one batch on its connection. Under load a batch gathers what arrived
/// while the workers were busy, so many requests share one round trip; alone, a request runs as
/// soon as a worker is free, never held back for company. `run` must complete every request of
/// its batch; a job that gets no connection fails the requests it would have taken.
final class RequestBatcher<Request: Sendable>: Sendable {
    private struct Waiting {
        var requests: [Request] = []
        /// Whether a pool job is queued that will take the waiting requests.
        var scheduled = false
    }

    private let pool: ConnectionPool
    private let limit: Int
    private let run: @Sendable ([Request], PostgresConnection, Double) -> Void
    private let fail: @Sendable (Request, any Error) -> Void
    private let waiting = Locked(Waiting())

    init(pool: ConnectionPool, limit: Int, run: @escaping @Sendable ([Request], PostgresConnection, Double) -> Void,
         fail: @escaping @Sendable (Request, any Error) -> Void) {
        self.pool = pool
        self.limit = limit
        self.run = run
        self.fail = fail
    }

    func add(_ request: Request) {
        let schedule = waiting.withLock { waiting -> Bool in
            waiting.requests.append(request)
            defer { waiting.scheduled = true }
            return !waiting.scheduled
        }
        if schedule { scheduleJob() }
    }

    private func scheduleJob() {
        pool.run({ connection, deadline in
            self.run(self.takeBatch(), connection, deadline)
        }, completion: { (result: Result<Void, any Error>) in
            // The job got no connection (or the pool closed): the batch it would have run fails.
            if case .failure(let error) = result {
                for request in self.takeBatch() { self.fail(request, error) }
            }
        })
    }

    /// The oldest waiting requests, up to `limit`; queues the next job when more are waiting.
    private func takeBatch() -> [Request] {
        let (batch, more) = waiting.withLock { waiting -> ([Request], Bool) in
            let batch = Array(waiting.requests.prefix(limit))
            waiting.requests.removeFirst(batch.count)
            waiting.scheduled = !waiting.requests.isEmpty
            return (batch, waiting.scheduled)
        }
        if more { scheduleJob() }
        return batch
    }
}
