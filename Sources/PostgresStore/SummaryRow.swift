import RatingsCore

/// One row of `items` as read by `PostgresSQL.summaryColumns`, starting at column `offset`.
struct SummaryRow {
    let scale: Scale
    let isScaleExplicit: Bool
    let count: Int
    let sum: Int
    let distribution: [Int]

    init(_ result: PostgresResult, row: Int = 0, offset: Int = 0) {
        // The CHECK constraint keeps max_rating in 1...10; fall back rather than trap if a row was tampered with.
        scale = (try? Scale(maxRating: result.int(row, offset))) ?? .standard
        isScaleExplicit = result.bool(row, offset + 1)
        count = result.int(row, offset + 2)
        sum = result.int(row, offset + 3)
        distribution = (0..<10).map { result.int(row, offset + 4 + $0) }
    }

    func summary(of item: ItemID) -> ItemSummary {
        ItemSummary(item: item, scale: scale, count: count, sum: sum, distribution: distribution)
    }

    /// The first row of `result`, when there is one.
    static func first(of result: PostgresResult) -> SummaryRow? { result.rowCount > 0 ? SummaryRow(result) : nil }
}
