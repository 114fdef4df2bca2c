/// What a change event reports. The raw value is the event's `type` on the wire.
public enum EventType: String, Sendable, Hashable, CaseIterable {
    case ratingCreated = "rating.created"
    case ratingUpdated = "rating.updated"
    case ratingCleared = "rating.cleared"
    case reviewCreated = "review.created"
    case reviewUpdated = "review.updated"
    case reviewRemoved = "review.removed"
    case reviewPublished = "review.published"
    case reviewPending = "review.pending"
    case reviewRejected = "review.rejected"
    case reviewReplied = "review.replied"
    case itemConfigured = "item.configured"
    case raterErased = "rater.erased"

    /// This type's bit in an `EventTypes` set.
    var bit: UInt16 { UInt16(1) << UInt16(Self.allCases.firstIndex(of: self) ?? 0) }

    /// The part before the dot: `rating`, `review`, `item` or `rater`.
    public var family: Substring { rawValue.prefix { $0 != "." } }

    /// The event of a review entering `status` (by a decision, the flag threshold or an edit).
    public static func reviewBecame(_ status: ReviewStatus) -> EventType {
        switch status {
        case .published: .reviewPublished
        case .pending: .reviewPending
        case .rejected: .reviewRejected
        }
    }
}

/// Which event types an endpoint receives: a type (`review.published`), every type of a family
/// (`rating.*`), or every type (`*`).
public struct EventPattern: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    /// Nil when `text` names no type and no family.
    public init?(_ text: String) {
        let known = text == "*" || EventType(rawValue: text) != nil
            || (text.hasSuffix(".*") && EventType.allCases.contains { $0.family == text.dropLast(2) })
        guard known else { return nil }
        description = text
    }

    public func matches(_ type: EventType) -> Bool {
        description == "*" || description == type.rawValue || (description.hasSuffix(".*") && type.family == description.dropLast(2))
    }
}

/// A set of event types as one word: what an endpoint's patterns match, asked once per event.
public struct EventTypes: Sendable, Hashable {
    private let bits: UInt16

    /// The types any of `patterns` matches.
    public init(matching patterns: [EventPattern]) {
        bits = EventType.allCases.filter { type in patterns.contains { $0.matches(type) } }.reduce(0) { $0 | $1.bit }
    }

    public func contains(_ type: EventType) -> Bool { bits & type.bit != 0 }
}
