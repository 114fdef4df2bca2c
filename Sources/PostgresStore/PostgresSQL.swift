/// The SQL of the PostgreSQL store, in one place: plain statements any PostgreSQL-compatible
/// engine can judge itself against (no functions, no extensions). Parameters are cast where
/// their type would otherwise be ambiguous.
enum PostgresSQL {
    /// The columns that make an item's summary, in the order `SummaryRow` reads them.
    static let summaryColumns = "max_rating, scale_explicit, rating_count, rating_sum, "
        + (1...10).map { "stars_\($0)" }.joined(separator: ", ")

    static let selectItem = "SELECT \(summaryColumns) FROM items WHERE item_id = $1"

    /// Several items at once; the caller puts them back in the order asked.
    static let selectItems = "SELECT item_id, \(summaryColumns) FROM items WHERE item_id = ANY ($1::text[])"

    /// A rating with its item's scale, read in one statement so both come from one snapshot.
    static let selectRatingWithScale = """
        SELECT r.stars, r.updated_at_ms, i.max_rating FROM ratings AS r JOIN items AS i USING (item_id)
        WHERE r.item_id = $1 AND r.rater_id = $2
        """

    /// Makes sure the item exists (on the scale `$2` when it is new) and locks its row until the
    /// transaction ends, returning its current summary. Every write to an item starts here, so
    /// writes to one item run one after another in every process, and each then reads the latest
    /// committed state (READ COMMITTED takes a new snapshot per statement).
    static let lockItem = """
        INSERT INTO items (item_id, max_rating) VALUES ($1, $2::smallint)
        ON CONFLICT (item_id) DO UPDATE SET item_id = excluded.item_id
        RETURNING \(summaryColumns)
        """

    /// Locks an item's row if it exists, returning its summary.
    static let lockExistingItem = "SELECT \(summaryColumns) FROM items WHERE item_id = $1 FOR UPDATE"

    static let setScale = "UPDATE items SET max_rating = $2::smallint, scale_explicit = true WHERE item_id = $1 RETURNING \(summaryColumns)"

    static let selectStars = "SELECT stars FROM ratings WHERE item_id = $1 AND rater_id = $2"

    static let upsertRating = """
        INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) VALUES ($1, $2, $3::smallint, $4::bigint)
        ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms
        """

    static let deleteRating = "DELETE FROM ratings WHERE item_id = $1 AND rater_id = $2 RETURNING stars"

    /// Moves one rating into (`$2`), out of (`$3`), or between histogram buckets, and returns
    /// the new summary. Either side may be NULL.
    static let applyDelta = """
        UPDATE items SET
            rating_count = rating_count + ($2::int IS NOT NULL)::int - ($3::int IS NOT NULL)::int,
            rating_sum = rating_sum + coalesce($2::int, 0) - coalesce($3::int, 0),
            \((1...10).map { "stars_\($0) = stars_\($0) + ($2::int IS NOT DISTINCT FROM \($0))::int - ($3::int IS NOT DISTINCT FROM \($0))::int" }.joined(separator: ",\n    "))
        WHERE item_id = $1
        RETURNING \(summaryColumns)
        """

    static let ping = "SELECT 1"
}
