/// Where change events wait for delivery: one row per event and subscribed endpoint, written in
/// the transaction of the change it reports, so an acknowledged change always has its events and
/// a rolled-back one never has. Every store that takes events is one.
public protocol OutboxStore: Sendable {
    /// Up to `limit` of `endpoint`'s pending deliveries due at `nowMilliseconds` that no
    /// dispatcher holds, oldest due first, each now held for `leaseMilliseconds` by the caller:
    /// while held, no other dispatcher (in this process or another on the same database) takes it.
    func claimDeliveries(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64,
                         completion: @escaping StoreCompletion<[OutboxDelivery]>)

    /// Records what an attempt came to, releasing the delivery.
    func finishDelivery(_ result: DeliveryResult, completion: @escaping StoreCompletion<Void>)

    /// Marks every pending delivery of `endpoint` failed at `nowMilliseconds` with `reason`: for
    /// an endpoint no longer in the webhooks file. Answers how many.
    func abandonDeliveries(for endpoint: String, nowMilliseconds: Int64, reason: String, completion: @escaping StoreCompletion<Int>)

    /// Removes delivered and failed rows finished before `beforeMilliseconds`; answers how many.
    func pruneDeliveries(finishedBefore beforeMilliseconds: Int64, completion: @escaping StoreCompletion<Int>)

    /// Per endpoint id: rows pending, delivered and failed, and the last attempt that did not
    /// succeed.
    func deliveryTotals(completion: @escaping StoreCompletion<[String: DeliveryTotals]>)

    /// Pending rows per endpoint id (those with none are left out): cheap, for every scrape.
    func pendingDeliveries(completion: @escaping StoreCompletion<[String: Int]>)
}

/// Turns the events of a write into outbox rows: which endpoints want each one and the body each
/// gets. A store calls it inside the write's transaction; the program gives it the endpoints in
/// force and the wire format.
public protocol EventRecorder: Sendable {
    /// The rows of `events`, one per event and subscribed endpoint; none when no endpoint wants them.
    func entries(for events: [ChangeEvent]) -> [OutboxEntry]
}

/// One event for one endpoint, as written to the outbox.
public struct OutboxEntry: Sendable, Hashable {
    /// The event's id (`webhook-id`): the same for every endpoint and every attempt.
    public let eventID: String
    public let endpoint: String
    public let type: EventType
    /// The body delivered, at most 20 KB.
    public let payload: String
    public let createdAtMilliseconds: Int64

    public init(eventID: String, endpoint: String, type: EventType, payload: String, createdAtMilliseconds: Int64) {
        self.eventID = eventID
        self.endpoint = endpoint
        self.type = type
        self.payload = payload
        self.createdAtMilliseconds = createdAtMilliseconds
    }
}

/// A delivery a dispatcher holds, to attempt now.
public struct OutboxDelivery: Sendable, Hashable {
    /// The row's key.
    public let id: Int64
    public let entry: OutboxEntry
    /// Attempts made before this one.
    public let attempts: Int
    /// When the first attempt began; nil before it.
    public let firstAttemptMilliseconds: Int64?

    public init(id: Int64, entry: OutboxEntry, attempts: Int, firstAttemptMilliseconds: Int64?) {
        self.id = id
        self.entry = entry
        self.attempts = attempts
        self.firstAttemptMilliseconds = firstAttemptMilliseconds
    }
}

/// What one attempt came to.
public struct DeliveryResult: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        case delivered
        /// To be tried again at `dueMilliseconds`.
        case retry(dueMilliseconds: Int64)
        /// Given up: the retry window is over.
        case failed
    }

    public let delivery: Int64
    public let outcome: Outcome
    /// The attempt's HTTP status, when one was answered.
    public let status: Int?
    /// What went wrong without a status (a timeout, a refused connection, a TLS failure).
    public let error: String?
    public let attemptedAtMilliseconds: Int64
    /// When the delivery's first attempt began (this one, for a first attempt).
    public let firstAttemptMilliseconds: Int64

    public init(delivery: Int64, outcome: Outcome, status: Int?, error: String?, attemptedAtMilliseconds: Int64,
                firstAttemptMilliseconds: Int64) {
        self.delivery = delivery
        self.outcome = outcome
        self.status = status
        self.error = error
        self.attemptedAtMilliseconds = attemptedAtMilliseconds
        self.firstAttemptMilliseconds = firstAttemptMilliseconds
    }
}

/// One endpoint's rows in the outbox.
public struct DeliveryTotals: Sendable, Hashable {
    public var pending = 0
    public var delivered = 0
    public var failed = 0
    /// The latest attempt that did not succeed.
    public var lastError: DeliveryError?

    public init() {}

    /// Adds `rows` in `state` as the outbox stores it (`pending`, `delivered` or `failed`).
    public mutating func add(_ rows: Int, in state: String) {
        switch state {
        case "pending": pending += rows
        case "delivered": delivered += rows
        default: failed += rows
        }
    }
}

/// An attempt that did not succeed: when, and its HTTP status or what went wrong without one.
public struct DeliveryError: Sendable, Hashable {
    public let atMilliseconds: Int64
    public let status: Int?
    public let error: String?

    public init(atMilliseconds: Int64, status: Int?, error: String?) {
        self.atMilliseconds = atMilliseconds
        self.status = status
        self.error = error
    }
}
