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

    /// The summaries of the items in the array `$1`, each with its id first.
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

    /// Moves one rating into (`$2`), out of (`$3`), or between histogram buckets, stores the new
    /// score key (`$4`, `$5`), adds `$6` published reviews and `$7` to the version, and returns
    /// the new summary. Either side may be NULL.
    static let applyDelta = """
        UPDATE items SET
            rating_count = rating_count + ($2::int IS NOT NULL)::int - ($3::int IS NOT NULL)::int,
            review_count = review_count + $6::int, version = version + $7::int,
            rating_sum = rating_sum + coalesce($2::int, 0) - coalesce($3::int, 0),
            score_high = $4::bigint, score_low = $5::bigint,
            \((1...10).map { "stars_\($0) = stars_\($0) + ($2::int IS NOT DISTINCT FROM \($0))::int - ($3::int IS NOT DISTINCT FROM \($0))::int" }.joined(separator: ",\n    "))
        WHERE item_id = $1
        RETURNING \(summaryColumns)
        """

    /// Writes rater `$2`'s rating of `$3` stars on item `$1` at `$4`, in one statement: moves the
    /// histogram, count and sum from the rating's previous stars (read here, so the write needs
    /// no read before it), stores the score key computed from the new count and sum, moves the
    /// version when `$5` (events are recorded) and the stars changed (`EventRules.submit` emits
    /// nothing otherwise), upserts the rating and gives its review, if any, the new stars.
    /// Returns the previous stars (NULL for none), the review's status when its stars changed
    /// (else NULL), then the new summary; no row, and nothing written, when the item does not
    /// exist or its scale has fewer stars than `$3`. The item's row must be locked by this
    /// transaction already (`lockItem`, or `lockExistingItem` when `$3` is past the default
    /// scale, which a new item takes): then no other transaction can have changed its ratings,
    /// and this statement's snapshot reads them as they are.
    static func rate(_ ranking: RankingSettings) -> String {
        let key = scoreKey(count: "m.count", sum: "m.sum", maxRating: "m.max_rating", ranking)
        return """
            WITH previous AS (SELECT (SELECT stars FROM ratings WHERE item_id = $1 AND rater_id = $2) AS stars),
            moved AS (SELECT i.rating_count + 1 - (p.stars IS NOT NULL)::int AS count, i.rating_sum + $3::int - coalesce(p.stars, 0) AS sum,
                             i.max_rating
                      FROM items AS i, previous AS p WHERE i.item_id = $1 AND $3::int <= i.max_rating),
            rated AS (INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) SELECT $1, $2, $3::smallint, $4::bigint FROM moved
                      ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, updated_at_ms = excluded.updated_at_ms),
            restarred AS (UPDATE reviews SET stars = $3::smallint, updated_at_ms = $4::bigint
                          WHERE item_id = $1 AND rater_id = $2 AND stars <> $3::smallint AND EXISTS (SELECT FROM moved)
                          RETURNING status)
            UPDATE items AS i SET
                rating_count = m.count, rating_sum = m.sum, version = i.version + ($5::boolean AND p.stars IS DISTINCT FROM $3::int)::int,
                score_high = \(key.high),
                score_low = \(key.low),
                \((1...10).map { "stars_\($0) = i.stars_\($0) + ($3::int = \($0))::int - (p.stars IS NOT DISTINCT FROM \($0))::int" }.joined(separator: ",\n    "))
            FROM previous AS p, moved AS m
            WHERE i.item_id = $1
            RETURNING p.stars, (SELECT status FROM restarred), \(summaryColumns(of: "i"))
            """
    }

    /// SQL for the score key of `count` ratings adding up to `sum` on a scale of `maxRating` stars
    /// under `ranking`, exactly as `BayesianScore.key` computes it: the score's numerator times
    /// 2^62 divided by its denominator, then the remainder's likewise, in `numeric`, which is
    /// exact at any size; NULL for no ratings. `PipelinedWriteTests.scoreKeyMatchesSwift` holds the
    /// two equal.
    static func scoreKey(count: String, sum: String, maxRating: String, _ ranking: RankingSettings) -> (high: String, low: String) {
        let (w, p, q) = (ranking.weight, ranking.priorTenThousandths, RankingSettings.priorScale)
        let span = "(CASE WHEN \(maxRating) = 1 THEN 1 ELSE \(maxRating) - 1 END)"
        let numerator = "(CASE WHEN \(maxRating) = 1 THEN \(w * p)::numeric + \(count)::numeric * \(q) "
            + "ELSE \(w * p)::numeric * (\(maxRating) - 1) + \(q)::numeric * (\(sum) - \(count)) END)"
        let denominator = "(\(q)::numeric * \(span) * (\(w) + \(count)))"
        let shift = "4611686018427387904::numeric" // 2^62
        return (high: "CASE WHEN \(count) > 0 THEN div(\(numerator) * \(shift), \(denominator))::bigint END",
                low: "CASE WHEN \(count) > 0 THEN div(mod(\(numerator) * \(shift), \(denominator)) * \(shift), \(denominator))::bigint END")
    }

    static let ping = "SELECT 1"

    // MARK: Reviews

    /// One review in any status, with its item's scale.
    static let selectReview = "SELECT \(ReviewQueries.columnsWithScale) FROM reviews AS r WHERE r.item_id = $1 AND r.rater_id = $2"

    /// One review, its row locked until the transaction ends: a vote's counts are read and
    /// rewritten under it, so concurrent votes in any process count once each.
    static let lockReview = "SELECT \(ReviewQueries.columnsWithScale) FROM reviews AS r WHERE r.item_id = $1 AND r.rater_id = $2 FOR UPDATE OF r"

    /// Writes a review's stars, text and status (`$7`); a replaced review keeps its creation
    /// time and votes, and the time it entered its status unless the status changes. Returns the
    /// review as stored.
    static let upsertReview = """
        INSERT INTO reviews AS r (item_id, rater_id, stars, title, body, language, status, created_at_ms, updated_at_ms, status_since_ms)
        VALUES ($1, $2, $3::smallint, $4, $5, $6, $7, $8::bigint, $8::bigint, $8::bigint)
        ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, title = excluded.title, body = excluded.body,
            language = excluded.language, updated_at_ms = excluded.updated_at_ms,
            status_since_ms = CASE WHEN r.status = excluded.status THEN r.status_since_ms ELSE excluded.status_since_ms END,
            status = excluded.status
        RETURNING \(ReviewQueries.columnsWithScale)
        """

    /// Removes a review (its votes go with it, ON DELETE CASCADE); returns its status and its
    /// stars (the rating's, which a review's removal keeps).
    static let deleteReview = "DELETE FROM reviews WHERE item_id = $1 AND rater_id = $2 RETURNING status, stars"

    /// Adds `$2` published reviews to an item and returns its summary.
    static let addReviews = "UPDATE items SET review_count = review_count + $2::int WHERE item_id = $1 RETURNING \(summaryColumns)"

    static let selectVote = "SELECT helpful FROM review_votes WHERE item_id = $1 AND rater_id = $2 AND voter_id = $3"

    static let upsertVote = """
        INSERT INTO review_votes (item_id, rater_id, voter_id, helpful) VALUES ($1, $2, $3, $4::boolean)
        ON CONFLICT (item_id, rater_id, voter_id) DO UPDATE SET helpful = excluded.helpful
        """

    static let deleteVote = "DELETE FROM review_votes WHERE item_id = $1 AND rater_id = $2 AND voter_id = $3"

    /// Sets or (NULLs) removes a review's reply.
    static let setReply = """
        UPDATE reviews SET reply_body = $3, reply_author = $4, reply_updated_at_ms = $5::bigint WHERE item_id = $1 AND rater_id = $2
        """

    /// Stores a review's vote counts and their helpful key.
    static let setHelpful = """
        UPDATE reviews SET helpful_up = $3::bigint, helpful_down = $4::bigint, helpful_key = $5::bigint WHERE item_id = $1 AND rater_id = $2
        """

    /// A page of an item's published reviews in each order (`ReviewQueries.itemPage`).
    static let selectReviewPages = Dictionary(uniqueKeysWithValues: ReviewSort.allCases.map { sort in
        (sort, ReviewQueries.itemPage(sort) { parameter in
            switch parameter {
            case .item, .rater: "$\(parameter.rawValue)"
            case .language: "$\(parameter.rawValue)::text"
            case .starMask, .limit: "$\(parameter.rawValue)::int"
            case .key, .createdAt: "$\(parameter.rawValue)::bigint"
            }
        })
    })

    /// A page of a rater's reviews after a position, newest change first, ties by item id,
    /// through `reviews_by_rater`.
    static let selectRaterReviewPage = """
        SELECT \(ReviewQueries.columnsWithScale) FROM reviews AS r
        WHERE r.rater_id = $1 AND r.updated_at_ms <= $2::bigint AND (r.updated_at_ms < $2::bigint OR r.item_id > $3)
        ORDER BY r.updated_at_ms DESC, r.item_id ASC
        LIMIT $4::int
        """

    /// Removes every vote a rater gave and takes each out of its review's counts, in one
    /// statement; returns each touched review's new counts and how many votes it lost.
    static let eraseVoterVotes = """
        WITH gone AS (DELETE FROM review_votes WHERE voter_id = $1 RETURNING item_id, rater_id, helpful),
        per_review AS (
            SELECT item_id, rater_id, count(*) FILTER (WHERE helpful) AS up, count(*) FILTER (WHERE NOT helpful) AS down
            FROM gone GROUP BY item_id, rater_id)
        UPDATE reviews AS r SET helpful_up = r.helpful_up - p.up, helpful_down = r.helpful_down - p.down
        FROM per_review AS p WHERE r.item_id = p.item_id AND r.rater_id = p.rater_id
        RETURNING r.item_id, r.rater_id, r.helpful_up, r.helpful_down, p.up + p.down
        """

    /// Sets the helpful keys of many reviews at once (arrays of item ids, rater ids and keys).
    static let setHelpfulKeys = """
        UPDATE reviews SET helpful_key = v.key
        FROM unnest($1::text[], $2::text[], $3::bigint[]) AS v(item_id, rater_id, key)
        WHERE reviews.item_id = v.item_id AND reviews.rater_id = v.rater_id
        """

    /// Removes every review of a rater (their votes go with them) and takes the published ones
    /// out of their items' counts, in one statement; returns each removed review's item and
    /// status.
    static let eraseRaterReviews = """
        WITH gone AS (DELETE FROM reviews WHERE rater_id = $1 RETURNING item_id, status),
        published AS (SELECT item_id, count(*)::int AS n FROM gone WHERE status = 'published' GROUP BY item_id),
        counted AS (UPDATE items AS i SET review_count = i.review_count - p.n FROM published AS p WHERE i.item_id = p.item_id)
        SELECT item_id, status FROM gone
        """

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

    // MARK: Moderation (`ModerationQueries`, in this dialect)

    private static let typed: ModerationQueries.Parameter = { position, type in "$\(position)::\(type)" }
    static let selectFlag = ModerationQueries.selectFlag(typed)
    static let upsertFlag = ModerationQueries.upsertFlag(typed)
    static let deleteFlag = ModerationQueries.deleteFlag(typed)
    static let roundFlagCount = ModerationQueries.roundFlagCount(typed)
    static let setStatus = ModerationQueries.setStatus(typed)
    static let appendHistory = ModerationQueries.appendHistory(typed)
    static let flagCounts = ModerationQueries.flagCounts(typed)
    static let history = ModerationQueries.history(typed)
    static let queuePage = ModerationQueries.queuePage(typed)
    static let deleteFlaggerFlags = ModerationQueries.deleteFlaggerFlags(typed)
    static let deleteAuthorHistory = ModerationQueries.deleteAuthorHistory(typed)

    // MARK: The outbox (`OutboxQueries`, in this dialect)

    static let bumpVersion = OutboxQueries.bumpVersion(typed) + " RETURNING version"
    static let insertOutbox = OutboxQueries.insert(typed)
    /// Two replicas' claims never take one row: each skips the rows the other has locked.
    static let claimDeliveries = OutboxQueries.claim(typed, lock: "FOR UPDATE SKIP LOCKED")
    static let finishDelivery = OutboxQueries.finish(typed)
    static let pruneDeliveries = OutboxQueries.prune(typed)
    static let abandonDeliveries = OutboxQueries.abandon(typed)
    static let lastDeliveryError = OutboxQueries.lastError(typed)

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
