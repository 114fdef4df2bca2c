import RatingsCore

/// What one transaction changed that readers keep in memory: items' rows (for the summary
/// cache) and the items whose review lists changed (for their list versions).
struct ItemChanges: Sendable {
    var rows: [ItemID: SummaryRow] = [:]
    var reviewLists: Set<ItemID> = []

    mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        reviewLists.removeAll(keepingCapacity: true)
    }
}
