import RatingsCore

extension PostgresResult {
    /// The review in row `row`, its `ReviewQueries.columns` starting at column 0 and the item's
    /// scale in `scaleColumn` (by default the one after them, as `ReviewQueries.columnsWithScale` has it).
    func review(_ row: Int, scaleColumn: Int = ReviewQueries.columnCount) -> Review {
        ReviewQueries.review(item: text(row, 0), rater: text(row, 1), stars: int(row, 2), title: optionalText(row, 3), body: text(row, 4),
                             language: optionalText(row, 5), status: text(row, 6), createdAtMilliseconds: int(row, 7),
                             updatedAtMilliseconds: int(row, 8), up: int(row, 9), down: int(row, 10),
                             reply: (optionalText(row, 11), optionalText(row, 12), int(row, 13)), maxRating: int(row, scaleColumn))
    }

    /// Every row as a review, in order.
    var reviews: [Review] { (0..<rowCount).map { review($0) } }

    /// A column as text, nil for NULL.
    func optionalText(_ row: Int, _ column: Int) -> String? { isNull(row, column) ? nil : text(row, column) }
}
