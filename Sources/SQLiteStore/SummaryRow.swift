import RatingsCore

/// One row of `items` as read by `RatingSQL.summaryColumns`.
struct SummaryRow {
    let scale: Scale
    let isScaleExplicit: Bool
    let count: Int
    let sum: Int
    let distribution: [Int]

    /// Reads the current row of `statement`, its summary columns starting at `offset`.
    init(_ statement: SQLiteStatement, offset: Int32 = 0) {
        // The CHECK constraint keeps max_rating in 1...10; fall back rather than trap if a file was tampered with.
        scale = (try? Scale(maxRating: statement.int(offset))) ?? .standard
        isScaleExplicit = statement.int(offset + 1) != 0
        count = statement.int(offset + 2)
        sum = statement.int(offset + 3)
        distribution = (0..<Int32(10)).map { statement.int(offset + 4 + $0) }
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
