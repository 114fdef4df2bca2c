import RatingsCore

extension SummaryRow {
    /// Row `row` of `result`, its `PostgresSQL.summaryColumns` starting at column `offset`.
    init(_ result: PostgresResult, row: Int = 0, offset: Int = 0) {
        self.init(maxRating: result.int(row, offset), isScaleExplicit: result.bool(row, offset + 1), count: result.int(row, offset + 2),
                  sum: result.int(row, offset + 3), distribution: PerStar(length: 10) { result.int(row, offset + 4 + $0) },
                  reviewCount: result.int(row, offset + 14), version: Int64(result.int(row, offset + 15)))
    }

    /// The first row of `result`, when there is one.
    static func first(of result: PostgresResult) -> SummaryRow? { result.rowCount > 0 ? SummaryRow(result) : nil }
}
