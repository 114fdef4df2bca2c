import RatingsCore

/// A summary read waiting for a pool worker, with where its answer goes.
struct PendingSummary: Sendable {
    let item: ItemID
    let defaultScale: Scale
    let completion: StoreCompletion<ItemSummary>
}

/// The summary reads of the PostgreSQL store (`GET /v1/items/{id}`): the reads that waited for a
/// worker together (`RequestBatcher`) are one statement and one round trip, each distinct item
/// read once. Each still sees every write acknowledged before it arrived: the statement starts
/// after the last of them was queued, and takes its own snapshot then.
enum SummaryReads {
    /// Reads how many a batch takes at most.
    static let batchLimit = 256

    static func run(_ batch: [PendingSummary], _ connection: PostgresConnection, _ deadline: Double) {
        do {
            var rows: [ItemID: SummaryRow] = [:]
            if let only = batch.first, batch.count == 1 {
                rows[only.item] = try SummaryRow.first(of: connection.query(PostgresSQL.selectItem, [only.item.rawValue], deadline: deadline))
            } else {
                let items = Array(Set(batch.map(\.item.rawValue)))
                let found = try connection.query(PostgresSQL.selectItems, [PostgresSQL.textArray(items)], deadline: deadline)
                for row in 0..<found.rowCount { rows[ItemID(stored: found.text(row, 0))] = SummaryRow(found, row: row, offset: 1) }
            }
            for pending in batch {
                pending.completion(.success(rows[pending.item]?.summary(of: pending.item) ?? .empty(pending.item, on: pending.defaultScale)))
            }
        } catch {
            for pending in batch { pending.completion(.failure(error)) }
        }
    }
}
