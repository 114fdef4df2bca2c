/// Which events each write emits, from what it changed. A write that changes nothing emits
/// nothing (and moves no item version); votes and flags below the threshold emit nothing.
public enum EventRules {
    /// A rating write that found `previous` stars (nil for none) and left `new`; `reviewed`
    /// when the rater has a review of the item, whose stars change with the rating's.
    public static func submit(previous: Int?, new: Int, reviewed: Bool) -> [EventType] {
        guard let previous else { return [.ratingCreated] }
        guard previous != new else { return [] }
        return reviewed ? [.ratingUpdated, .reviewUpdated] : [.ratingUpdated]
    }

    /// A clear that removed a rating (`cleared`) and with it, perhaps, its review.
    public static func clear(cleared: Bool, removedReview: Bool) -> [EventType] {
        (cleared ? [.ratingCleared] : []) + (removedReview ? [.reviewRemoved] : [])
    }

    /// A review write: the rating's previous stars (nil for none), the review it replaced (nil
    /// for none), and what it wrote.
    public static func writeReview(previousStars: Int?, newStars: Int, replacing existing: Review?, text: ReviewText,
                                   change: ModerationEntry?) -> [EventType] {
        var types: [EventType] = []
        if previousStars == nil { types.append(.ratingCreated) } else if previousStars != newStars { types.append(.ratingUpdated) }
        if let existing {
            if ReviewText(existing) != text || existing.stars.count != newStars { types.append(.reviewUpdated) }
        } else {
            types.append(.reviewCreated)
        }
        if let change { types.append(.reviewBecame(change.status)) }
        return types
    }

    /// A moderator's decision: an event only when the status changed.
    public static func decision(_ entry: ModerationEntry) -> [EventType] {
        entry.status == entry.previous ? [] : [.reviewBecame(entry.status)]
    }

    /// A scale set on an item: an event when it changed the scale or made it explicit.
    public static func configure(before: SummaryRow?, scale: Scale) -> [EventType] {
        guard let before, before.isScaleExplicit, before.scale == scale else { return [.itemConfigured] }
        return []
    }
}
