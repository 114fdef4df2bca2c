/// One change a write made, as its event reports it: recorded in the write's transaction and
/// delivered to the endpoints subscribed to its type.
public struct ChangeEvent: Sendable, Hashable {
    public let type: EventType
    public let atMilliseconds: Int64
    public let subject: Subject

    /// What the event is about.
    public enum Subject: Sendable, Hashable {
        /// A rating, a review or an item's scale, with the item's state after the write.
        case item(ItemChange)
        /// An erased rater and what the erasure removed.
        case rater(RaterID, Erasure)
    }

    public init(type: EventType, atMilliseconds: Int64, subject: Subject) {
        self.type = type
        self.atMilliseconds = atMilliseconds
        self.subject = subject
    }
}

/// An item after a write that emitted events about it.
public struct ItemChange: Sendable, Hashable {
    public let item: ItemID
    /// The rater the write was about; nil for an item's configuration.
    public let rater: RaterID?
    /// The rater's stars after the write; nil once cleared (and for a configuration).
    public let stars: Int?
    /// The review's status after the write, for `review.*` events.
    public let status: ReviewStatus?
    /// How many writes that emitted events the item has had, this one included: every event of
    /// one write carries the same number, and a later write a larger one.
    public let version: Int64
    public let summary: ItemSummary

    public init(item: ItemID, rater: RaterID?, stars: Int?, status: ReviewStatus?, version: Int64, summary: ItemSummary) {
        self.item = item
        self.rater = rater
        self.stars = stars
        self.status = status
        self.version = version
        self.summary = summary
    }
}

/// The events one write emits about one item, before the store has moved the item's version
/// and computed its summary: what a store's aggregate update records along with it.
public struct EventDraft: Sendable, Hashable {
    public let types: [EventType]
    public let rater: RaterID?
    public let stars: Int?
    public let status: ReviewStatus?
    public let atMilliseconds: Int64

    public init(_ types: [EventType], rater: RaterID?, stars: Int?, status: ReviewStatus? = nil, at milliseconds: Int64) {
        self.types = types
        self.rater = rater
        self.stars = stars
        self.status = status
        atMilliseconds = milliseconds
    }

    /// The events, once the store has moved `item`'s version to `version`, leaving `summary`.
    public func events(item: ItemID, version: Int64, summary: ItemSummary) -> [ChangeEvent] {
        let change = ItemChange(item: item, rater: rater, stars: stars, status: status, version: version, summary: summary)
        return types.map { ChangeEvent(type: $0, atMilliseconds: atMilliseconds, subject: .item(change)) }
    }
}
