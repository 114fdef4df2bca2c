import Dispatch
public import RatingsCore
public import Locking
import Platform

/// Delivers the outbox: a claiming thread takes due deliveries from the store (held for a lease,
/// so no other dispatcher on the database attempts them meanwhile) and hands them to worker
/// threads, each POSTing with its own libcurl handle; every attempt's result goes back to the
/// store with its next due time from `RetrySchedule`. None of this runs on an event loop or the
/// SQLite writer: writes only add rows, so an endpoint that is down, slow or failing never slows
/// them. An endpoint has at most `perEndpoint` attempts in flight, so one that hangs holds only
/// its share of the workers. Delivered and failed rows are pruned after `retentionSeconds`.
public final class WebhookDispatcher: WebhookMonitor {
    /// How the dispatcher runs.
    public struct Settings: Sendable {
        public var workers = 8
        public var perEndpoint = 4
        /// How long a claimed delivery is held: longer than an attempt can take, with room.
        public var leaseSeconds: Int64 = 60
        /// How long one attempt may take, connecting included.
        public var timeoutSeconds = 10.0
        /// How often the outbox is asked for due deliveries when there were none.
        public var pollSeconds = 0.25
        /// How long delivered and failed rows are kept. Default 7 days.
        public var retentionSeconds: Int64 = 7 * 86_400
        public var pruneIntervalSeconds = 60.0

        public init() {}
    }

    private let store: any OutboxStore
    private let endpointSet: WebhookEndpoints
    private let settings: Settings
    private let log: @Sendable (String) -> Void
    private let wallMilliseconds: @Sendable () -> Int64
    private let work = WorkQueue<OutboxDelivery>()
    /// Signalled when a worker frees up or the dispatcher stops, so the claimer need not wait a poll.
    private let wakeUp = DispatchSemaphore(value: 0)
    private let state = Locked(State())
    private let counts = Locked<[String: AttemptCounts]>([:])
    private let threads = Locked<[JoinableThread]>([])

    private struct State {
        var stopped = false
        var inFlight = 0
        var inFlightByEndpoint: [String: Int] = [:]
    }

    public init(store: any OutboxStore, endpoints: WebhookEndpoints, settings: Settings = Settings(),
                wallMilliseconds: (@Sendable () -> Int64)? = nil, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        endpointSet = endpoints
        self.settings = settings
        self.wallMilliseconds = wallMilliseconds ?? { SystemClock.wallMilliseconds() }
        self.log = log
    }

    public var endpoints: [WebhookEndpoint] { endpointSet.all }

    public func attempts() -> [String: AttemptCounts] { counts.withLock { $0 } }

    /// Starts the claiming thread and the workers.
    public func start() throws(ThreadStartError) {
        var started: [JoinableThread] = []
        for index in 1...settings.workers {
            guard let poster = WebhookPoster(timeoutSeconds: settings.timeoutSeconds) else { continue }
            // Safe: the poster is used by this one worker thread alone, from here on.
            nonisolated(unsafe) let owned = poster
            started.append(try JoinableThread.start(name: "webhook-\(index)") { [self] in work(with: owned) })
        }
        started.append(try JoinableThread.start(name: "webhook-claims") { [self] in claimLoop() })
        threads.withLock { $0 = started }
    }

    /// Stops claiming, lets the attempts under way end (each within its timeout), and joins every
    /// thread. Claimed deliveries not attempted are released by their lease's end.
    public func stop() {
        state.withLock { $0.stopped = true }
        wakeUp.signal()
        work.close()
        for thread in threads.withLock({ $0 }) { _ = thread.join() }
    }

    private func claimLoop() {
        var lastPrune = 0.0
        while !state.withLock({ $0.stopped }) {
            let now = SystemClock.monotonicSeconds()
            if now - lastPrune >= settings.pruneIntervalSeconds {
                lastPrune = now
                prune()
            }
            let (idle, busy) = state.withLock { state in
                (settings.workers - state.inFlight,
                 state.inFlightByEndpoint.filter { $0.value >= settings.perEndpoint }.map(\.key).sorted())
            }
            var claimed = 0
            if idle > 0 { claimed = claim(limit: idle, excluding: busy) }
            if claimed == 0 || claimed < idle { _ = wakeUp.wait(timeout: .now() + settings.pollSeconds) }
        }
    }

    /// Claims up to `limit` deliveries and queues them for the workers; answers how many.
    private func claim(limit: Int, excluding busy: [String]) -> Int {
        let done = DispatchSemaphore(value: 0)
        let answer = Locked<Result<[OutboxDelivery], any Error>>(.success([]))
        store.claimDeliveries(nowMilliseconds: wallMilliseconds(), limit: limit, leaseMilliseconds: settings.leaseSeconds * 1000,
                              excluding: busy) { outcome in
            answer.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        let claimed: [OutboxDelivery]
        switch answer.withLock({ $0 }) {
        case .success(let deliveries): claimed = deliveries
        case .failure(let error):
            log("webhooks: cannot claim deliveries from the outbox: \(error)")
            return 0
        }
        for delivery in claimed {
            state.withLock { state in
                state.inFlight += 1
                state.inFlightByEndpoint[delivery.entry.endpoint, default: 0] += 1
            }
            if !work.put(delivery) { release(delivery) }
        }
        return claimed.count
    }

    private func work(with poster: WebhookPoster) {
        while let delivery = work.take() {
            attempt(delivery, with: poster)
            release(delivery)
        }
    }

    private func release(_ delivery: OutboxDelivery) {
        state.withLock { state in
            state.inFlight -= 1
            state.inFlightByEndpoint[delivery.entry.endpoint, default: 1] -= 1
            if state.inFlightByEndpoint[delivery.entry.endpoint] == 0 { state.inFlightByEndpoint[delivery.entry.endpoint] = nil }
        }
        wakeUp.signal()
    }

    private func attempt(_ delivery: OutboxDelivery, with poster: WebhookPoster) {
        let started = wallMilliseconds()
        let first = delivery.firstAttemptMilliseconds ?? started
        let entry = delivery.entry
        guard let endpoint = endpointSet.endpoint(entry.endpoint) else {
            record(delivery, .failed, PostResult(status: nil, error: "the endpoint is no longer in the webhooks file"), at: started, first: first)
            return
        }
        let body = Array(entry.payload.utf8)
        let timestamp = started / 1000
        let headers = [
            "Content-Type: application/json",
            "webhook-id: \(entry.eventID)",
            "webhook-timestamp: \(timestamp)",
            "webhook-signature: \(WebhookSignature.sign(id: entry.eventID, timestampSeconds: timestamp, body: body, secret: endpoint.secret))",
        ]
        let result = poster.post(url: endpoint.url, headers: headers, body: body)
        if let status = result.status, (200..<300).contains(status) {
            record(delivery, .delivered, result, at: started, first: first)
            return
        }
        let honoured = result.status == 429 || result.status == 503 ? result.retryAfterSeconds : nil
        let due = RetrySchedule.next(afterAttempts: delivery.attempts + 1, firstAttemptMilliseconds: first, nowMilliseconds: wallMilliseconds(),
                                     retryAfterSeconds: honoured)
        record(delivery, due.map { .retry(dueMilliseconds: $0) } ?? .failed, result, at: started, first: first)
    }

    private func record(_ delivery: OutboxDelivery, _ outcome: DeliveryResult.Outcome, _ result: PostResult, at attempted: Int64, first: Int64) {
        let entry = delivery.entry
        counts.withLock { counts in
            switch outcome {
            case .delivered: counts[entry.endpoint, default: AttemptCounts()].delivered += 1
            case .retry: counts[entry.endpoint, default: AttemptCounts()].retried += 1
            case .failed: counts[entry.endpoint, default: AttemptCounts()].failed += 1
            }
        }
        if outcome != .delivered {
            let what = result.status.map { "answered \($0)" } ?? "failed: \(result.error ?? "no answer")"
            let next: String = switch outcome {
            case .retry(let due): "tried again in \((due - wallMilliseconds() + 999) / 1000) s"
            default: "given up after \(delivery.attempts + 1) attempts; marked failed"
            }
            log("webhooks: endpoint \(entry.endpoint): attempt \(delivery.attempts + 1) of \(entry.type.rawValue) event \(entry.eventID) \(what); \(next)")
        }
        let finished = DeliveryResult(delivery: delivery.id, outcome: outcome, status: result.status, error: result.error,
                                      attemptedAtMilliseconds: attempted, firstAttemptMilliseconds: first)
        let log = self.log
        store.finishDelivery(finished) { outcome in
            if case .failure(let error) = outcome {
                log("webhooks: cannot record the attempt of event \(entry.eventID) for endpoint \(entry.endpoint): \(error); its lease will end and it will be tried again")
            }
        }
    }

    private func prune() {
        let before = wallMilliseconds() - settings.retentionSeconds * 1000
        let done = DispatchSemaphore(value: 0)
        let removed = Locked(0)
        store.pruneDeliveries(finishedBefore: before) { [log] outcome in
            switch outcome {
            case .success(let count): removed.withLock { $0 = count }
            case .failure(let error): log("webhooks: cannot prune the outbox: \(error)")
            }
            done.signal()
        }
        done.wait()
        // A full batch means more may be left: the next loop prunes again at once.
        if removed.withLock({ $0 }) == OutboxQueries.pruneBatch { prune() }
    }
}
