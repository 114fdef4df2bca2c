import RatingsCore

/// The SQL of the store, in one place. Every statement is prepared once per connection.
enum RatingSQL {
    /// The columns that make an item's summary, in the order `SummaryRow` reads them.
    static let summaryColumns = SummaryRow.columns

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

    /// Moves one rating into (?2), out of (?3), or between histogram buckets, stores the new
    /// score key (?4, ?5), adds ?6 published reviews and ?7 to the version, as `SummaryRow.moving`,
    /// `movingReviews` and `movingVersion` compute the row. `IS` rather than `=` because either
    /// side may be NULL.
    static let applyDelta = """
        UPDATE items SET
            rating_count = rating_count + (?2 IS NOT NULL) - (?3 IS NOT NULL),
            review_count = review_count + ?6, version = version + ?7,
            rating_sum = rating_sum + coalesce(?2, 0) - coalesce(?3, 0),
            score_high = ?4, score_low = ?5,
            \((1...10).map { "stars_\($0) = stars_\($0) + (?2 IS \($0)) - (?3 IS \($0))" }.joined(separator: ",\n    "))
        WHERE item_id = ?1
        """

    /// One rater's stars on one item (for a batch that names a rater).
    static let selectStars = "SELECT stars FROM ratings WHERE item_id = ?1 AND rater_id = ?2"

    /// A page of a rater's ratings after a position, newest first, ties by item id, through
    /// `ratings_by_rater`; each with its item's scale. The leading `<=` is the index seek.
    static let selectRaterPage = """
        SELECT r.item_id, r.stars, r.updated_at_ms, i.max_rating FROM ratings AS r JOIN items AS i USING (item_id)
        WHERE r.rater_id = ?1 AND r.updated_at_ms <= ?2 AND (r.updated_at_ms < ?2 OR r.item_id > ?3)
        ORDER BY r.updated_at_ms DESC, r.item_id ASC
        LIMIT ?4
        """

    /// Every rating of a rater, for erasure.
    static let selectRaterRatings = "SELECT item_id, stars FROM ratings WHERE rater_id = ?1"

    static let deleteRaterRatings = "DELETE FROM ratings WHERE rater_id = ?1"

    // MARK: Reviews

    /// One review in any status, with its item's scale.
    static let selectReview = "SELECT \(ReviewQueries.columnsWithScale) FROM reviews AS r WHERE r.item_id = ?1 AND r.rater_id = ?2"

    /// Writes a review's stars, text and status (?7); a replaced review keeps its creation time
    /// and votes, and the time it entered its status unless the status changes. Unqualified
    /// columns in DO UPDATE are the row as it was.
    static let upsertReview = """
        INSERT INTO reviews (item_id, rater_id, stars, title, body, language, status, created_at_ms, updated_at_ms, status_since_ms)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8)
        ON CONFLICT (item_id, rater_id) DO UPDATE SET stars = excluded.stars, title = excluded.title, body = excluded.body,
            language = excluded.language, updated_at_ms = excluded.updated_at_ms,
            status_since_ms = CASE WHEN status = excluded.status THEN status_since_ms ELSE excluded.status_since_ms END,
            status = excluded.status
        """

    /// Gives a review its rating's new stars (?3) at ?4; nothing when there is no review or the
    /// stars did not change.
    static let restarReview = "UPDATE reviews SET stars = ?3, updated_at_ms = ?4 WHERE item_id = ?1 AND rater_id = ?2 AND stars <> ?3"

    /// A review's status, for the writes that remove it.
    static let selectReviewStatus = "SELECT status FROM reviews WHERE item_id = ?1 AND rater_id = ?2"

    /// Removes a review; its votes go with it (ON DELETE CASCADE).
    static let deleteReview = "DELETE FROM reviews WHERE item_id = ?1 AND rater_id = ?2"

    static let selectVote = "SELECT helpful FROM review_votes WHERE item_id = ?1 AND rater_id = ?2 AND voter_id = ?3"

    static let upsertVote = """
        INSERT INTO review_votes (item_id, rater_id, voter_id, helpful) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (item_id, rater_id, voter_id) DO UPDATE SET helpful = excluded.helpful
        """

    static let deleteVote = "DELETE FROM review_votes WHERE item_id = ?1 AND rater_id = ?2 AND voter_id = ?3"

    /// Sets or (NULLs) removes a review's reply.
    static let setReply = """
        UPDATE reviews SET reply_body = ?3, reply_author = ?4, reply_updated_at_ms = ?5 WHERE item_id = ?1 AND rater_id = ?2
        """

    /// Stores a review's vote counts and their helpful key.
    static let setHelpful = "UPDATE reviews SET helpful_up = ?3, helpful_down = ?4, helpful_key = ?5 WHERE item_id = ?1 AND rater_id = ?2"

    /// A page of an item's published reviews in each order, branch by branch
    /// (`ReviewQueries.itemPageBranches`): on a local file three short seeks cost less than a
    /// UNION whose outer ORDER BY copies every row, text included, into a sorter.
    static let selectReviewPageBranches = Dictionary(uniqueKeysWithValues: ReviewSort.allCases.map { sort in
        (sort, ReviewQueries.itemPageBranches(sort) { "?\($0.rawValue)" })
    })

    /// A page of a rater's reviews after a position, newest change first, ties by item id,
    /// through `reviews_by_rater`.
    static let selectRaterReviewPage = """
        SELECT \(ReviewQueries.columnsWithScale) FROM reviews AS r
        WHERE r.rater_id = ?1 AND r.updated_at_ms <= ?2 AND (r.updated_at_ms < ?2 OR r.item_id > ?3)
        ORDER BY r.updated_at_ms DESC, r.item_id ASC
        LIMIT ?4
        """

    /// The votes a rater gave, for erasure.
    static let selectVoterVotes = "SELECT item_id, rater_id, helpful FROM review_votes WHERE voter_id = ?1"

    static let deleteVoterVotes = "DELETE FROM review_votes WHERE voter_id = ?1"

    /// Every review of a rater with its status, for erasure.
    static let selectRaterReviewStatuses = "SELECT item_id, status FROM reviews WHERE rater_id = ?1"

    /// Every review of a rater; their votes go with them (ON DELETE CASCADE).
    static let deleteRaterReviews = "DELETE FROM reviews WHERE rater_id = ?1"

    /// A page of the ranking after a position (see `RankingPageQuery`; parameters 1 to 6 in its order).
    static let selectRankingPage = RankingPageQuery.sql { "?\($0.rawValue)" }

    /// Everything a score is computed from, for re-scoring after the ranking settings change.
    static let selectScoreInputs = "SELECT item_id, max_rating, rating_count, rating_sum FROM items WHERE rating_count > 0"

    static let setScore = "UPDATE items SET score_high = ?2, score_low = ?3 WHERE item_id = ?1"

    static let selectSetting = "SELECT value FROM settings WHERE name = ?1"

    static let insertSetting = "INSERT INTO settings (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING"

    static let replaceSetting = "INSERT INTO settings (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO UPDATE SET value = excluded.value"

    /// Copies the whole WAL into the database file and truncates it (sqlite.org/pragma.html#pragma_wal_checkpoint):
    /// its first column is 1 when a reader kept the checkpoint from completing.
    static let emptyWAL = "PRAGMA wal_checkpoint(TRUNCATE)"
}
