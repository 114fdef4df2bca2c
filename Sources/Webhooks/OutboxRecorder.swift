public import RatingsCore

/// The stores' `EventRecorder`: for each event, a row for every endpoint in force that wants its
/// type, with an event id shared by those rows and the body `render` writes.
public final class OutboxRecorder: EventRecorder {
    private let endpoints: WebhookEndpoints
    private let render: @Sendable (ChangeEvent) -> String

    public init(endpoints: WebhookEndpoints, render: @escaping @Sendable (ChangeEvent) -> String) {
        self.endpoints = endpoints
        self.render = render
    }

    public func entries(for events: [ChangeEvent]) -> [OutboxEntry] {
        let endpoints = endpoints.all
        var entries: [OutboxEntry] = []
        for event in events {
            let subscribed = endpoints.filter { $0.wants(event.type) }
            guard !subscribed.isEmpty else { continue }
            let (id, payload) = (Self.newEventID(), render(event))
            entries += subscribed.map {
                OutboxEntry(eventID: id, endpoint: $0.id, type: event.type, payload: payload, createdAtMilliseconds: event.atMilliseconds)
            }
        }
        return entries
    }

    /// `msg_` and 24 random characters (143 bits), as Standard Webhooks ids look.
    static func newEventID() -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var generator = SystemRandomNumberGenerator()
        return "msg_" + String((0..<24).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
