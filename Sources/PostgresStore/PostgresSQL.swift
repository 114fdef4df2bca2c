import RatingsCore

/// The SQL of the PostgreSQL store, in one place: plain statements any PostgreSQL-compatible
/// engine can judge itself against (no functions, no extensions). Parameters are cast where
/// their type would otherwise be ambiguous.
enum PostgresSQL {
    /// The columns that make an item's summary, in the order `SummaryRow` reads them.
    static let summaryColumns = SummaryRow.columns

    /// The summary columns qualified by a table alias (`i.max_rating, …`).
    static func summaryColumns(of alias: String) -> String { SummaryRow.columnNames.map { "\(alias).\($0)" }.joined(separator: ", ") }

    static let selectItem = "SELECT \(summaryColumns) FROM items WHERE item_id = $1"

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

    /// Moves one rating into (`$2`), out of (`$3`), or between histogram buckets, stores the new
    /// score key (`$4`, `$5`), and returns the new summary. Either side may be NULL.
    static let applyDelta = """
        UPDATE items SET
            rating_count = rating_count + ($2::int IS NOT NULL)::int - ($3::int IS NOT NULL)::int,
            rating_sum = rating_sum + coalesce($2::int, 0) - coalesce($3::int, 0),
            score_high = $4::bigint, score_low = $5::bigint,
            \((1...10).map { "stars_\($0) = stars_\($0) + ($2::int IS NOT DISTINCT FROM \($0))::int - ($3::int IS NOT DISTINCT FROM \($0))::int" }.joined(separator: ",\n    "))
        WHERE item_id = $1
        RETURNING \(summaryColumns)
        """

    static let ping = "SELECT 1"

    /// Several items and one rater's stars on each, in one snapshot (one statement).
    static let selectListings = """
        SELECT i.item_id, \(summaryColumns(of: "i")), r.stars
        FROM items AS i LEFT JOIN ratings AS r ON r.item_id = i.item_id AND r.rater_id = $2
        WHERE i.item_id = ANY ($1::text[])
        """

    /// A page of a rater's ratings after a position, newest first, ties by item id, through
    /// `ratings_by_rater`; each with its item's scale.
    static let selectRaterPage = """
        SELECT r.item_id, r.stars, r.updated_at_ms, i.max_rating FROM ratings AS r JOIN items AS i USING (item_id)
        WHERE r.rater_id = $1 AND r.updated_at_ms <= $2::bigint AND (r.updated_at_ms < $2::bigint OR r.item_id > $3)
        ORDER BY r.updated_at_ms DESC, r.item_id ASC
        LIMIT $4::int
        """

    /// A page of the ranking after a position (see `RankingPageQuery`); the item id is text,
    /// every other parameter an integer.
    static let selectRankingPage = RankingPageQuery.sql { parameter in
        switch parameter {
        case .item: "$\(parameter.rawValue)"
        case .limit: "$\(parameter.rawValue)::int"
        case .scoreHigh, .scoreLow, .count, .minCount: "$\(parameter.rawValue)::bigint"
        }
    }

    /// Locks, in item order, every item the rater has rated: the order every writer locks items
    /// in, so an erasure and other writes never deadlock on each other.
    static let lockRaterItems = """
        SELECT item_id FROM items WHERE item_id IN (SELECT item_id FROM ratings WHERE rater_id = $1)
        ORDER BY item_id FOR UPDATE
        """

    /// Removes every rating of a rater and takes each out of its item's aggregates, in one
    /// statement; returns each touched item's new summary.
    static let eraseRater = """
        WITH gone AS (DELETE FROM ratings WHERE rater_id = $1 RETURNING item_id, stars),
        per_item AS (
            SELECT item_id, count(*) AS n, sum(stars) AS total,
                   \((1...10).map { "count(*) FILTER (WHERE stars = \($0)) AS s\($0)" }.joined(separator: ", "))
            FROM gone GROUP BY item_id)
        UPDATE items AS i SET
            rating_count = i.rating_count - p.n, rating_sum = i.rating_sum - p.total,
            \((1...10).map { "stars_\($0) = i.stars_\($0) - p.s\($0)" }.joined(separator: ", "))
        FROM per_item AS p WHERE i.item_id = p.item_id
        RETURNING i.item_id, \(summaryColumns(of: "i")), p.n
        """

    /// Sets the score keys of many items at once (arrays of ids, highs and lows; NULL keys allowed).
    static let setScores = """
        UPDATE items SET score_high = v.high, score_low = v.low
        FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS v(item_id, high, low)
        WHERE items.item_id = v.item_id
        """

    /// Everything a score is computed from, for re-scoring after the ranking settings change.
    static let selectScoreInputs = "SELECT item_id, max_rating, rating_count, rating_sum FROM items WHERE rating_count > 0"

    static let selectSetting = "SELECT value FROM settings WHERE name = $1"

    static let insertSetting = "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"

    static let replaceSetting = "INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value"

    /// A PostgreSQL array literal of identifiers. Identifiers hold no quote, backslash or comma,
    /// so each can be double-quoted as it is (quoting also keeps an item named NULL a string).
    static func textArray(_ values: [String]) -> String {
        "{" + values.map { "\"\($0)\"" }.joined(separator: ",") + "}"
    }

    /// A PostgreSQL array literal of integers, NULL for nil.
    static func integerArray(_ values: [Int?]) -> String {
        "{" + values.map { $0.map(String.init) ?? "NULL" }.joined(separator: ",") + "}"
    }
}
