import RatingsCore

extension SummaryRow {
    /// The current row of `statement`, its `RatingSQL.summaryColumns` starting at `offset`.
    init(_ statement: SQLiteStatement, offset: Int32 = 0) {
        self.init(maxRating: statement.int(offset), isScaleExplicit: statement.int(offset + 1) != 0, count: statement.int(offset + 2),
                  sum: statement.int(offset + 3), distribution: PerStar(length: 10) { statement.int(offset + 4 + Int32($0)) },
                  reviewCount: statement.int(offset + 14), version: Int64(statement.int(offset + 15)))
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
