/// The query for a page of the ranking after a position, one text for both engines so that they
/// seek the same way and return the same order, ties included.
///
/// A row follows the position in one of four ways: a later item id on the same score and count,
/// a lower count on the same score, a lower low half, a lower high half. Each is its own seek on
/// the index `items_by_score`, so a page deep in a million tied items costs what the first one
/// does. The branches come out in rank order, each already sorted; the outer sort orders at most
/// four pages.
public enum RankingPageQuery {
    /// The query's parameters; `rawValue` is each one's position, counting from 1.
    public enum Parameter: Int, CaseIterable, Sendable {
        case scoreHigh = 1, scoreLow, count, item, minCount, limit
    }

    /// The SQL, with `placeholder` writing each parameter in the engine's dialect (`?1`, `$1::bigint`).
    public static func sql(placeholder: (Parameter) -> String) -> String {
        let (high, low, count, item) = (placeholder(.scoreHigh), placeholder(.scoreLow), placeholder(.count), placeholder(.item))
        let (minCount, limit) = (placeholder(.minCount), placeholder(.limit))
        let order = "score_high DESC, score_low DESC, rating_count DESC, item_id"
        return [
            "score_high = \(high) AND score_low = \(low) AND rating_count = \(count) AND item_id > \(item)",
            "score_high = \(high) AND score_low = \(low) AND rating_count < \(count)",
            "score_high = \(high) AND score_low < \(low)",
            "score_high < \(high)",
        ].enumerated().map { branch, follows in
            """
            SELECT * FROM (SELECT item_id, \(SummaryRow.columns), \(branch) AS branch, score_high, score_low FROM items
                WHERE rating_count > 0 AND rating_count >= \(minCount) AND \(follows)
                ORDER BY \(order) LIMIT \(limit)) AS branch\(branch)
            """
        }.joined(separator: "\nUNION ALL\n") + "\nORDER BY branch, \(order) LIMIT \(limit)"
    }
}
