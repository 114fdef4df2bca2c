import RatingsCore

/// One row of `items` as read by `RatingSQL.summaryColumns`.
struct SummaryRow {
    let scale: Scale
    let isScaleExplicit: Bool
    let count: Int
    let sum: Int
    let distribution: [Int]

    /// Reads the current row of `statement`.
    init(_ statement: SQLiteStatement) {
        // The CHECK constraint keeps max_rating in 1...10; fall back rather than trap if a file was tampered with.
        scale = (try? Scale(maxRating: statement.int(0))) ?? .standard
        isScaleExplicit = statement.int(1) != 0
        count = statement.int(2)
        sum = statement.int(3)
        distribution = (0..<Int32(10)).map { statement.int(4 + $0) }
    }

    func summary(of item: ItemID) -> ItemSummary {
        ItemSummary(item: item, scale: scale, count: count, sum: sum, distribution: distribution)
    }
}

extension SQLiteStatement {
    /// Runs a statement expected to return at most one summary row.
    func summaryRow(bind: () throws(SQLiteError) -> Void) throws(SQLiteError) -> SummaryRow? {
        var row: SummaryRow?
        try run(bind: bind) { row = SummaryRow(self) }
        return row
    }
}
