import Dispatch
public import RatingsCore
public import Locking
import Platform

/// Delivers the outbox: a claiming thread takes due deliveries from the store (held for a lease,
/// so no other dispatcher on the database attempts them meanwhile) and hands them to worker
/// threads, each POSTing with its own libcurl handle; every attempt's result goes back to the
/// store with its next due time from `RetrySchedule`. None of this runs on an event loop or the
/// SQLite writer: writes only add rows, so an endpoint that is down, slow or failing never slows
/// them; one whose attempt failed rests before the next (see `Settings.restSeconds`), so its
/// failures cannot load the store either. An endpoint has at most `perEndpoint` attempts in
/// flight (claims are made per endpoint, for its room only), so one that hangs holds only its
/// share of the workers, and a claim costs what it takes, however many rows a slow endpoint has
/// waiting. Delivered and failed rows are pruned after `retentionSeconds`.
public final class WebhookDispatcher: WebhookMonitor {
    /// How the dispatcher runs.
    public struct Settings: Sendable {
        public var workers = 8
        public var perEndpoint = 4
        /// How long a claimed delivery is held: long enough for the attempts of a batch held before
        /// it (`perEndpoint` at a time, each within `timeoutSeconds`) and its own. A process killed
        /// while it held some leaves them to be handed out again when their lease ends.
        public var leaseSeconds: Int64 = 30
        /// How long one attempt may take, connecting included.
        public var timeoutSeconds = 10.0
        /// How often the outbox is asked for due deliveries when there were none.
        public var pollSeconds = 0.25
        /// How long an endpoint rests after a failed attempt, doubling with each failure in a row
        /// up to `maxRestSeconds`: no attempt starts there meanwhile, and nothing is claimed for
        /// it, so an endpoint that is down costs an attempt (and a write) a rest, not one per event.
        public var restSeconds = 1.0
        public var maxRestSeconds = 60.0
        /// How long delivered and failed rows are kept. Default 7 days.
        public var retentionSeconds: Int64 = 7 * 86_400
        public var pruneIntervalSeconds = 60.0

        public init() {}
    }

    private let store: any OutboxStore
    private let endpointSet: WebhookEndpoints
    private let settings: Settings
    private let log: @Sendable (String) -> Void
    /// The body of an event, rendered at each attempt from the outbox's stored form.
    private let render: @Sendable (ChangeEvent) -> String
    private let wallMilliseconds: @Sendable () -> Int64
    private let work = WorkQueue<OutboxDelivery>()
    /// Signalled when a worker frees up or the dispatcher stops, so the claimer need not wait a poll.
    private let wakeUp = DispatchSemaphore(value: 0)
    private let state = Locked(State())
    private let counts = Locked<[String: AttemptCounts]>([:])
    private let threads = Locked<[JoinableThread]>([])

    private struct State {
        var stopped = false
        /// Attempts under way, per endpoint.
        var inFlight: [String: Int] = [:]
        /// Claimed deliveries waiting for a worker, per endpoint, each with the monotonic time its
        /// lease ends.
        var held: [String: [(delivery: OutboxDelivery, leaseEnds: Double)]] = [:]
        /// How long an attempt takes at each endpoint, a moving average in seconds.
        var attemptSeconds: [String: Double] = [:]
        /// Endpoints whose last attempt failed: until when (monotonic) they rest, and for how long
        /// the last rest was. A success ends it.
        var resting: [String: (until: Double, seconds: Double)] = [:]

        func isResting(_ endpoint: String, at now: Double) -> Bool { (resting[endpoint]?.until ?? 0) > now }

        var busyWorkers: Int { inFlight.values.reduce(0, +) }
    }

    public init(store: any OutboxStore, endpoints: WebhookEndpoints, settings: Settings = Settings(),
                wallMilliseconds: (@Sendable () -> Int64)? = nil, render: @escaping @Sendable (ChangeEvent) -> String,
                log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.render = render
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
    /// thread. Held deliveries not attempted are handed out again when their lease ends.
    public func stop() {
        state.withLock { $0.stopped = true }
        wakeUp.signal()
        work.close()
        for thread in threads.withLock({ $0 }) { _ = thread.join() }
    }

    /// How many of an endpoint's deliveries one claim takes: about a second of its attempts
    /// (`perEndpoint` at a time, at its average pace), at least two rounds and at most 256. One
    /// claim is a durable write, so a fast endpoint gets large batches; a slow one gets small
    /// ones, whose attempts all start well inside their lease.
    private func batch(_ endpoint: String, _ state: State) -> Int {
        // An endpoint that failed lately is asked for one round only: its attempts may fail again.
        if state.resting[endpoint] != nil { return settings.perEndpoint }
        let seconds = state.attemptSeconds[endpoint] ?? 0.05
        return max(settings.perEndpoint * 2, min(256, Int(Double(settings.perEndpoint) / max(seconds, 0.000_1))))
    }

    private func claimLoop() {
        var lastPrune = 0.0
        while !state.withLock({ $0.stopped }) {
            let now = SystemClock.monotonicSeconds()
            if now - lastPrune >= settings.pruneIntervalSeconds {
                lastPrune = now
                prune()
            }
            // Deliveries held for an endpoint whose rest has just ended start now.
            startAttempts()
            // An endpoint holding less than half a batch is asked for what is due, up to a batch; a
            // full batch means more may be waiting, so the loop asks again at once.
            var full = false
            for endpoint in endpointSet.all.map(\.id) {
                let (room, size) = state.withLock { state -> (Int, Int) in
                    if state.isResting(endpoint, at: now) { return (0, 0) }
                    let size = self.batch(endpoint, state)
                    return (size - state.held[endpoint, default: []].count - state.inFlight[endpoint, default: 0], size)
                }
                guard size > 0 else { continue }
                guard room >= size / 2 else { continue }
                if claim(for: endpoint, limit: room) == room { full = true }
            }
            if !full { _ = wakeUp.wait(timeout: .now() + settings.pollSeconds) }
        }
    }

    /// Claims up to `limit` of `endpoint`'s due deliveries, holds them, and starts what the
    /// workers have room for; answers how many were claimed.
    private func claim(for endpoint: String, limit: Int) -> Int {
        let claimedAt = SystemClock.monotonicSeconds()
        guard let claimed = wait({
            self.store.claimDeliveries(for: endpoint, nowMilliseconds: self.wallMilliseconds(), limit: limit,
                                       leaseMilliseconds: self.settings.leaseSeconds * 1000, completion: $0)
        }, doing: "claim deliveries from the outbox") else { return 0 }
        let leaseEnds = claimedAt + Double(settings.leaseSeconds)
        state.withLock { $0.held[endpoint, default: []] += claimed.map { ($0, leaseEnds) } }
        startAttempts()
        return claimed.count
    }

    /// Hands held deliveries to idle workers, at most `perEndpoint` in flight per endpoint. One
    /// whose lease would end before an attempt could finish is dropped unattempted: when the lease
    /// ends, the outbox hands it out again.
    private func startAttempts() {
        let margin = settings.timeoutSeconds + 5
        let started: [OutboxDelivery] = state.withLock { state in
            guard !state.stopped else { return [] }
            var started: [OutboxDelivery] = []
            let now = SystemClock.monotonicSeconds()
            for endpoint in state.held.keys.sorted() where !state.isResting(endpoint, at: now) {
                while state.busyWorkers < settings.workers, state.inFlight[endpoint, default: 0] < settings.perEndpoint,
                      let next = state.held[endpoint]?.first {
                    state.held[endpoint]?.removeFirst()
                    guard next.leaseEnds - now > margin else { continue }
                    state.inFlight[endpoint, default: 0] += 1
                    started.append(next.delivery)
                }
                if state.held[endpoint]?.isEmpty == true { state.held[endpoint] = nil }
            }
            return started
        }
        for delivery in started where !work.put(delivery) { finished(delivery) }
    }

    private func work(with poster: WebhookPoster) {
        while let delivery = work.take() {
            let started = SystemClock.monotonicSeconds()
            attempt(delivery, with: poster)
            finished(delivery, tookSeconds: SystemClock.monotonicSeconds() - started)
        }
    }

    /// Frees the delivery's worker and endpoint slot (and counts how long its attempt took, when
    /// one was made), starts the next held ones, and wakes the claimer when the endpoint runs low.
    private func finished(_ delivery: OutboxDelivery, tookSeconds seconds: Double? = nil) {
        let endpoint = delivery.entry.endpoint
        let low = state.withLock { state -> Bool in
            if let seconds {
                state.attemptSeconds[endpoint] = state.attemptSeconds[endpoint].map { 0.8 * $0 + 0.2 * seconds } ?? seconds
            }
            state.inFlight[endpoint, default: 1] -= 1
            if state.inFlight[endpoint] == 0 { state.inFlight[endpoint] = nil }
            return state.held[endpoint, default: []].count + state.inFlight[endpoint, default: 0] <= self.batch(endpoint, state) / 2
        }
        startAttempts()
        if low { wakeUp.signal() }
    }

    private func attempt(_ delivery: OutboxDelivery, with poster: WebhookPoster) {
        let started = wallMilliseconds()
        let first = delivery.firstAttemptMilliseconds ?? started
        let entry = delivery.entry
        guard let endpoint = endpointSet.endpoint(entry.endpoint) else {
            record(delivery, .failed, PostResult(status: nil, error: Self.removedReason), at: started, first: first)
            return
        }
        guard let event = ChangeEvent(stored: entry.payload) else {
            record(delivery, .failed, PostResult(status: nil, error: "the outbox row does not hold an event this version reads"), at: started, first: first)
            return
        }
        let body = Array(render(event).utf8)
        let timestamp = started / 1000
        let headers = [
            "Content-Type: application/json",
            "webhook-id: \(entry.eventID)",
            "webhook-timestamp: \(timestamp)",
            "webhook-signature: \(WebhookSignature.sign(id: entry.eventID, timestampSeconds: timestamp, body: body, secret: endpoint.secret))",
        ]
        let result = poster.post(url: endpoint.url, headers: headers, body: body)
        let succeeded = result.status.map { (200..<300).contains($0) } ?? false
        rest(entry.endpoint, failed: !succeeded)
        if succeeded {
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

    /// Starts or ends an endpoint's rest after an attempt: a success ends it; a failure starts one
    /// (1 s, then twice the last one up to the maximum, when the last had ended: the attempts that
    /// were in flight together fail together and count once).
    private func rest(_ endpoint: String, failed: Bool) {
        let now = SystemClock.monotonicSeconds()
        state.withLock { state in
            guard failed else {
                state.resting[endpoint] = nil
                return
            }
            guard !state.isResting(endpoint, at: now) else { return }
            let seconds = state.resting[endpoint].map { min(settings.maxRestSeconds, $0.seconds * 2) } ?? settings.restSeconds
            state.resting[endpoint] = (now + seconds, seconds)
        }
    }

    /// Removes old finished rows, and fails the pending ones of endpoints no longer in the file.
    private func prune() {
        let before = wallMilliseconds() - settings.retentionSeconds * 1000
        while wait({ self.store.pruneDeliveries(finishedBefore: before, completion: $0) }, doing: "prune the outbox") == OutboxQueries.pruneBatch {}
        let configured = Set(endpointSet.all.map(\.id))
        let pending = wait({ self.store.pendingDeliveries(completion: $0) }, doing: "count the outbox's pending rows") ?? [:]
        for endpoint in pending.keys where !configured.contains(endpoint) {
            let count = wait({
                self.store.abandonDeliveries(for: endpoint, nowMilliseconds: self.wallMilliseconds(), reason: Self.removedReason, completion: $0)
            }, doing: "fail the deliveries of a removed endpoint")
            if let count, count > 0 { log("webhooks: endpoint \(endpoint) is no longer in the webhooks file; its \(count) pending deliveries are marked failed") }
        }
    }

    /// Why the deliveries of an endpoint taken out of the file failed.
    static let removedReason = "the endpoint is no longer in the webhooks file"

    /// Runs `call` and waits for its answer; nil, logged, when it failed.
    private func wait<Value: Sendable>(_ call: (@escaping StoreCompletion<Value>) -> Void, doing what: String) -> Value? {
        let done = DispatchSemaphore(value: 0)
        let answer = Locked<Result<Value, any Error>?>(nil)
        call { outcome in
            answer.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        switch answer.withLock({ $0 }) {
        case .success(let value)?: return value
        case .failure(let error)?:
            log("webhooks: cannot \(what): \(error)")
            return nil
        case nil: return nil
        }
    }
}
