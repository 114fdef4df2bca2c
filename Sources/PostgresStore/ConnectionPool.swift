import Locking
import Platform
import RatingsCore

/// A bounded pool of PostgreSQL connections, each owned by a worker thread of its own: requests
/// queue, a free worker takes the next one, and every blocking call happens on that worker, never
/// on the caller's thread. A request carries a deadline from the moment it is queued, so a
/// database that is down or slow costs each request at most that long, and a worker that finds
/// its connection broken reconnects on the next request: the pool recovers by itself when the
/// database returns.
final class ConnectionPool: Sendable {
    /// One queued request: run `body` with a connection, or fail it with the reason there is none.
    private struct Job: Sendable {
        let deadline: Double
        let run: @Sendable (Result<PostgresConnection, PostgresError>, Double) -> Void
    }

    private let configuration: PostgresConfiguration
    private let jobs = WorkQueue<Job>()
    private let workers = Locked<[JoinableThread]>([])
    /// Whether a connection may be attempted now, after failures; shared by every worker.
    private let backoff: Locked<ReconnectBackoff>
    private let roundTripCount = Locked(0)

    /// How many times the pool's connections have waited for the server to answer
    /// (`PostgresConnection.roundTrips`), the figure the tests hold each kind of write to.
    var roundTrips: Int { roundTripCount.withLock { $0 } }

    init(_ configuration: PostgresConfiguration) throws {
        self.configuration = configuration
        backoff = Locked(ReconnectBackoff(base: configuration.reconnectPauseSeconds, cap: configuration.reconnectMaxPauseSeconds))
        for index in 0..<max(1, configuration.poolSize) {
            do {
                let worker = try JoinableThread.start(name: "postgres-\(index + 1)") { [self] in work() }
                workers.withLock { $0.append(worker) }
            } catch {
                close()
                throw error
            }
        }
    }

    /// Runs `body` on a worker with a connection, before the request's deadline, and delivers
    /// its result (or why it could not run) to `completion` on that worker.
    func run<T>(_ body: @escaping @Sendable (PostgresConnection, _ deadline: Double) throws -> T,
                completion: @escaping StoreCompletion<T>) {
        let job = Job(deadline: SystemClock.monotonicSeconds() + configuration.requestTimeoutSeconds) { connection, deadline in
            completion(Result { try body(connection.get(), deadline) })
        }
        if !jobs.put(job) {
            completion(.failure(PostgresError(kind: .connection, sqlstate: "", operation: "pool", message: "the store is closed")))
        }
    }

    /// Lets queued requests finish, then ends every worker and closes its connection.
    func close() {
        jobs.close()
        for worker in workers.withLock({ $0 }) { worker.join() }
    }

    /// A worker's life: take a request, make sure of a connection, run it; repeat until closed.
    private func work() {
        var connection: PostgresConnection?
        while let job = jobs.take() {
            let now = SystemClock.monotonicSeconds()
            guard now < job.deadline else {
                job.run(.failure(PostgresError(kind: .timeout, sqlstate: "", operation: "pool",
                                               message: "no connection was free within the request's time")), job.deadline)
                continue
            }
            if !(connection?.isUsable ?? false) {
                connection = nil
                switch connect(now: now, deadline: job.deadline) {
                case .success(let fresh): connection = fresh
                case .failure(let error):
                    job.run(.failure(error), job.deadline)
                    continue
                }
            }
            // Non-nil here: either it was usable or it was just made.
            guard let usable = connection else { continue }
            job.run(.success(usable), job.deadline)
        }
    }

    /// A new connection with the session's settings, unless attempts failed a moment ago.
    private func connect(now: Double, deadline: Double) -> Result<PostgresConnection, PostgresError> {
        if let refusal = backoff.withLock({ $0.refusal(at: now) }) { return .failure(refusal) }
        do {
            let connection = try PostgresConnection(uri: configuration.uri, applicationName: "ratings", deadline: deadline,
                                                roundTrips: roundTripCount)
            // Server-side limits behind the client's own deadline: no statement or lock wait runs
            // on after the request has been answered, and no transaction is left open.
            try connection.execute("""
                SET statement_timeout = \(Int(configuration.requestTimeoutSeconds * 1000));
                SET lock_timeout = \(Int(configuration.requestTimeoutSeconds * 1000));
                SET idle_in_transaction_session_timeout = 60000
                """, deadline: deadline)
            backoff.withLock { $0.succeeded() }
            return .success(connection)
        } catch {
            let jitter = Double.random(in: 0.5...1)
            backoff.withLock { $0.failed(error, at: SystemClock.monotonicSeconds(), jitter: jitter) }
            return .failure(error)
        }
    }
}
