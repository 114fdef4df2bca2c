import RatingsCore

extension SQLiteStatement {
    /// The review in the current row, its `ReviewQueries.columns` starting at column 0; on
    /// `maxRating`'s scale, or the one in the column after them (`ReviewQueries.columnsWithScale`).
    func review(maxRating: Int? = nil) -> Review {
        ReviewQueries.review(item: text(0), rater: text(1), stars: int(2), title: optionalText(3), body: optionalText(4) ?? "",
                             language: optionalText(5), status: text(6), createdAtMilliseconds: int(7), updatedAtMilliseconds: int(8),
                             up: int(9), down: int(10), reply: (optionalText(11), optionalText(12), int(13)),
                             maxRating: maxRating ?? int(Int32(ReviewQueries.columnCount)))
    }

    /// Runs a statement expected to return at most one review.
    func reviewRow(bind: () throws(SQLiteError) -> Void) throws(SQLiteError) -> Review? {
        var found: Review?
        try run(bind: bind) { found = review() }
        return found
    }

    /// Runs a statement that returns reviews, in its order.
    func reviewRows(bind: () throws(SQLiteError) -> Void) throws(SQLiteError) -> [Review] {
        var found: [Review] = []
        try run(bind: bind) { found.append(review()) }
        return found
    }
}
