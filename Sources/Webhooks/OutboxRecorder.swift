import Locking
public import RatingsCore

/// The stores' `EventRecorder`: for each event, a row for every endpoint in force that wants its
/// type, with an event id shared by those rows and the event as stored (`ChangeEvent.stored`);
/// the dispatcher renders the body from it.
public final class OutboxRecorder: EventRecorder {
    private let endpoints: WebhookEndpoints

    public init(endpoints: WebhookEndpoints) {
        self.endpoints = endpoints
    }

    public func entries(for events: [ChangeEvent]) -> [OutboxEntry] {
        let subscriptions = endpoints.subscriptions
        var entries: [OutboxEntry] = []
        for event in events {
            let subscribed = subscriptions.filter { $0.types.contains(event.type) }
            guard !subscribed.isEmpty else { continue }
            let (id, payload) = (newEventID(), event.stored)
            entries += subscribed.map {
                OutboxEntry(eventID: id, endpoint: $0.id, type: event.type, payload: payload, createdAtMilliseconds: event.atMilliseconds)
            }
        }
        return entries
    }

    /// `msg_` and 24 base-62 characters: 64 random bits drawn once per process, then a counter,
    /// so ids are unique across processes and restarts without a system call per event.
    func newEventID() -> String {
        let count = counter.withLock { value -> UInt64 in
            value &+= 1
            return value
        }
        return "msg_" + Self.base62(prefix, digits: 12) + Self.base62(count, digits: 12)
    }

    private let prefix: UInt64 = { var generator = SystemRandomNumberGenerator(); return generator.next() }()
    private let counter = Locked<UInt64>(0)

    /// `value` in `digits` base-62 characters (62^11 exceeds 2^64, so 12 hold any value).
    private static func base62(_ value: UInt64, digits: Int) -> String {
        var value = value
        var characters = [UInt8](repeating: alphabet[0], count: digits)
        for index in characters.indices.reversed() {
            characters[index] = alphabet[Int(value % 62)]
            value /= 62
        }
        return String(decoding: characters, as: UTF8.self)
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
}
