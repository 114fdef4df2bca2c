/// The SQL of the store, in one place. Every statement is prepared once per connection.
enum RatingSQL {
    /// The columns that make an item's summary, in the order `SummaryRow` reads them.
    static let summaryColumns = "max_rating, scale_explicit, rating_count, rating_sum, "
        + (1...10).map { "stars_\($0)" }.joined(separator: ", ")

    static let selectItem = "SELECT \(summaryColumns) FROM items WHERE item_id = ?1"

    static let insertItem = "INSERT INTO items (item_id, max_rating, scale_explicit) VALUES (?1, ?2, ?3)"

    static let setScale = "UPDATE items SET max_rating = ?2, scale_explicit = 1 WHERE item_id = ?1"

    static let selectRating = "SELECT stars, updated_at_ms FROM ratings WHERE item_id = ?1 AND rater_id = ?2"

    static let upsertRating = """
        INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms
        """

    /// A rating with its item's scale, read in one statement so both come from one snapshot.
    static let selectRatingWithScale = """
        SELECT r.stars, r.updated_at_ms, i.max_rating FROM ratings AS r JOIN items AS i USING (item_id)
        WHERE r.item_id = ?1 AND r.rater_id = ?2
        """

    static let deleteRating = "DELETE FROM ratings WHERE item_id = ?1 AND rater_id = ?2"

    /// Moves one rating into (?2), out of (?3), or between histogram buckets, and returns the
    /// new summary. `IS` rather than `=` because either side may be NULL.
    static let applyDelta = """
        UPDATE items SET
            rating_count = rating_count + (?2 IS NOT NULL) - (?3 IS NOT NULL),
            rating_sum = rating_sum + coalesce(?2, 0) - coalesce(?3, 0),
            \((1...10).map { "stars_\($0) = stars_\($0) + (?2 IS \($0)) - (?3 IS \($0))" }.joined(separator: ",\n    "))
        WHERE item_id = ?1
        RETURNING \(summaryColumns)
        """
}
