import Locking
public import RatingsCore

/// An `EventRecorder` for the store suites: every event goes to each endpoint named (all types),
/// its payload `type item version`, and is remembered in order for assertions.
public final class CapturingRecorder: EventRecorder {
    private let endpoints: [String]
    private let seen = Locked<[ChangeEvent]>([])
    private let counter = Locked(0)

    public init(endpoints: [String] = ["hook"]) { self.endpoints = endpoints }

    public func entries(for events: [ChangeEvent]) -> [OutboxEntry] {
        seen.withLock { $0 += events }
        return events.flatMap { event -> [OutboxEntry] in
            let id = "msg_" + String(counter.withLock { value -> Int in value += 1; return value })
            return endpoints.map { OutboxEntry(eventID: id, endpoint: $0, type: event.type, payload: Self.payload(event),
                                               createdAtMilliseconds: event.atMilliseconds) }
        }
    }

    /// Every event recorded so far, in order (those of writes that later failed included: the
    /// outbox, not this list, says what committed).
    public var events: [ChangeEvent] { seen.withLock { $0 } }

    /// `type item version`, or `type rater` for an erasure.
    public static func payload(_ event: ChangeEvent) -> String {
        switch event.subject {
        case .item(let change): "\(event.type.rawValue) \(change.item.rawValue) \(change.version)"
        case .rater(let rater, _): "\(event.type.rawValue) \(rater.rawValue)"
        }
    }
}
