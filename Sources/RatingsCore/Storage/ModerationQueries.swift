/// The moderation statements both engines run, one text each so that they read and write alike.
/// `parameter(n, type)` writes parameter `n` in the engine's dialect; `type` is the PostgreSQL
/// type it is cast to (`text`, `int`, `bigint`), which SQLite has no use for.
public enum ModerationQueries {
    public typealias Parameter = @Sendable (_ position: Int, _ type: String) -> String

    /// Flags of review (`r`) by reason, as six columns in `FlagReason.allCases` order: each an
    /// index range on the flags' primary key.
    public static let flagCountColumns = FlagReason.allCases.map { reason in
        "(SELECT count(*) FROM review_flags AS f WHERE f.item_id = r.item_id AND f.rater_id = r.rater_id AND f.reason = '\(reason.rawValue)')"
    }.joined(separator: ", ")

    /// Where a queue row holds `status_since_ms`; the flag counts follow it.
    public static let queueSinceColumn = ReviewQueries.columnCount + 1

    /// A page of pending reviews after a position (`$1` since, `$2` item, `$3` rater), longest
    /// waiting first, through `reviews_queue`; `$4` rows. Each row is
    /// `ReviewQueries.columnsWithScale`, `status_since_ms`, then `flagCountColumns`.
    public static func queuePage(_ p: Parameter) -> String {
        let (since, item, rater) = (p(1, "bigint"), p(2, "text"), p(3, "text"))
        return """
            SELECT \(ReviewQueries.columnsWithScale), r.status_since_ms, \(flagCountColumns) FROM reviews AS r
            WHERE r.status = 'pending' AND r.status_since_ms >= \(since)
                AND (r.status_since_ms > \(since) OR r.item_id > \(item) OR (r.item_id = \(item) AND r.rater_id > \(rater)))
            ORDER BY r.status_since_ms, r.item_id, r.rater_id
            LIMIT \(p(4, "int"))
            """
    }

    /// A review's flags by reason: rows of (reason, count).
    public static func flagCounts(_ p: Parameter) -> String {
        "SELECT reason, count(*) FROM review_flags WHERE item_id = \(p(1, "text")) AND rater_id = \(p(2, "text")) GROUP BY reason"
    }

    /// A review's history, oldest first: rows of (status, previous, reason, moderator, at_ms).
    public static func history(_ p: Parameter) -> String {
        """
        SELECT status, previous, reason, moderator, at_ms FROM moderation_history
        WHERE item_id = \(p(1, "text")) AND rater_id = \(p(2, "text")) ORDER BY entry_id
        """
    }

    /// Appends one entry (item, rater, status, previous, reason, moderator, at).
    public static func appendHistory(_ p: Parameter) -> String {
        """
        INSERT INTO moderation_history (item_id, rater_id, status, previous, reason, moderator, at_ms)
        VALUES (\(p(1, "text")), \(p(2, "text")), \(p(3, "text")), \(p(4, "text")), \(p(5, "text")), \(p(6, "text")), \(p(7, "bigint")))
        """
    }

    /// Whether the flagger (`$3`) has a flag on the review: one row when it does.
    public static func selectFlag(_ p: Parameter) -> String {
        "SELECT 1 FROM review_flags WHERE item_id = \(p(1, "text")) AND rater_id = \(p(2, "text")) AND flagger_id = \(p(3, "text"))"
    }

    /// Places or replaces a flag (reason `$4`, note `$5`, at `$6`); a new flag joins the review's
    /// current round of flags, a replaced one keeps its round and creation time.
    public static func upsertFlag(_ p: Parameter) -> String {
        let (item, rater) = (p(1, "text"), p(2, "text"))
        return """
            INSERT INTO review_flags (item_id, rater_id, flagger_id, reason, note, after_decisions, created_at_ms, updated_at_ms)
            VALUES (\(item), \(rater), \(p(3, "text")), \(p(4, "text")), \(p(5, "text")),
                    (SELECT decisions FROM reviews WHERE item_id = \(item) AND rater_id = \(rater)), \(p(6, "bigint")), \(p(6, "bigint")))
            ON CONFLICT (item_id, rater_id, flagger_id) DO UPDATE SET reason = excluded.reason, note = excluded.note,
                updated_at_ms = excluded.updated_at_ms
            """
    }

    public static func deleteFlag(_ p: Parameter) -> String {
        "DELETE FROM review_flags WHERE item_id = \(p(1, "text")) AND rater_id = \(p(2, "text")) AND flagger_id = \(p(3, "text"))"
    }

    /// The flags toward the threshold: those placed since the review's last decision. One flag
    /// per flagger (the primary key), so this counts distinct flaggers.
    public static func roundFlagCount(_ p: Parameter) -> String {
        """
        SELECT count(*) FROM review_flags AS f JOIN reviews AS r ON r.item_id = f.item_id AND r.rater_id = f.rater_id
        WHERE f.item_id = \(p(1, "text")) AND f.rater_id = \(p(2, "text")) AND f.after_decisions = r.decisions
        """
    }

    /// Sets a review's status (`$3`) at `$4` (its `status_since_ms` moves only when the status
    /// does) and adds `$5` (1 for a moderator's decision, else 0) to its decisions. The right-hand
    /// sides read the row as it was.
    public static func setStatus(_ p: Parameter) -> String {
        let status = p(3, "text")
        return """
            UPDATE reviews SET status = \(status),
                status_since_ms = CASE WHEN status = \(status) THEN status_since_ms ELSE \(p(4, "bigint")) END,
                decisions = decisions + \(p(5, "int"))
            WHERE item_id = \(p(1, "text")) AND rater_id = \(p(2, "text"))
            """
    }

    /// How many reviews are pending, through `reviews_queue`.
    public static let pendingCount = "SELECT count(*) FROM reviews WHERE status = 'pending'"

    /// Removes every flag a rater placed.
    public static func deleteFlaggerFlags(_ p: Parameter) -> String { "DELETE FROM review_flags WHERE flagger_id = \(p(1, "text"))" }

    /// Removes the history of every review a rater wrote (their decisions as a moderator stay).
    public static func deleteAuthorHistory(_ p: Parameter) -> String { "DELETE FROM moderation_history WHERE rater_id = \(p(1, "text"))" }

    /// A history entry from its columns (status, previous, reason, moderator, at) as stored; the
    /// CHECK constraints keep the statuses valid, and a row tampered with reads as pending.
    public static func entry(status: String, previous: String, reason: String?, moderator: String?, atMilliseconds: Int) -> ModerationEntry {
        ModerationEntry(status: ReviewStatus(rawValue: status) ?? .pending, previous: ReviewStatus(rawValue: previous) ?? .pending,
                        reason: reason, moderator: moderator, atMilliseconds: Int64(atMilliseconds))
    }
}
