/// The outbox statements both engines run, one text each, written as `ModerationQueries` are:
/// `p(n, type)` is parameter `n` in the engine's dialect, cast to `type` where PostgreSQL needs it.
public enum OutboxQueries {
    public typealias Parameter = ModerationQueries.Parameter

    /// Moves an item's version on by one (`$1` the item).
    public static func bumpVersion(_ p: Parameter) -> String { "UPDATE items SET version = version + 1 WHERE item_id = \(p(1, "text"))" }

    public static func selectVersion(_ p: Parameter) -> String { "SELECT version FROM items WHERE item_id = \(p(1, "text"))" }

    /// `rows` rows, each five parameters from `5 × row + 1`: event id, endpoint, type, payload,
    /// created at (also its first due time).
    public static func insert(rows: Int = 1, _ p: Parameter) -> String {
        let values = (0..<rows).map { row in
            let base = row * 5
            let at = p(base + 5, "bigint")
            return "(\(p(base + 1, "text")), \(p(base + 2, "text")), \(p(base + 3, "text")), \(p(base + 4, "text")), \(at), \(at))"
        }
        return "INSERT INTO webhook_outbox (event_id, endpoint_id, type, payload, created_at_ms, due_at_ms) VALUES " + values.joined(separator: ", ")
    }

    /// The columns of a claimed row, in `OutboxDelivery`'s order.
    public static let claimedColumns = "delivery_id, event_id, endpoint_id, type, payload, created_at_ms, attempts, first_attempt_at_ms"

    /// Holds up to `$3` of endpoint `$4`'s due rows (due at `$1`, not held) until `$2`, oldest
    /// due first, and returns them: a seek on `webhook_outbox_pending`, whatever other endpoints
    /// have waiting. `lock` is what keeps two claims from taking one row (PostgreSQL's `FOR
    /// UPDATE SKIP LOCKED`; nothing on SQLite, whose one writer runs claims one at a time).
    public static func claim(_ p: Parameter, lock: String) -> String {
        let now = p(1, "bigint")
        return """
            UPDATE webhook_outbox SET held_until_ms = \(p(2, "bigint"))
            WHERE delivery_id IN (SELECT delivery_id FROM webhook_outbox
                                  WHERE state = 'pending' AND endpoint_id = \(p(4, "text")) AND due_at_ms <= \(now) AND held_until_ms <= \(now)
                                  ORDER BY due_at_ms LIMIT \(p(3, "int")) \(lock))
            RETURNING \(claimedColumns)
            """
    }

    /// Records an attempt of row `$1`: the new state `$2`, the first attempt's time `$3` (kept if
    /// set), the next due time `$4`, the finish time `$5` (for a delivered or failed row), and,
    /// when the attempt did not succeed, its time `$6`, status `$7` and error `$8` (NULL `$6`
    /// keeps the last error as it was). Releases the row.
    public static func finish(_ p: Parameter) -> String {
        let errorAt = p(6, "bigint")
        return """
            UPDATE webhook_outbox SET state = \(p(2, "text")), attempts = attempts + 1,
                first_attempt_at_ms = coalesce(first_attempt_at_ms, \(p(3, "bigint"))), due_at_ms = \(p(4, "bigint")),
                finished_at_ms = \(p(5, "bigint")), held_until_ms = 0,
                last_status = CASE WHEN \(errorAt) IS NULL THEN last_status ELSE \(p(7, "bigint")) END,
                last_error = CASE WHEN \(errorAt) IS NULL THEN last_error ELSE \(p(8, "text")) END,
                error_at_ms = coalesce(\(errorAt), error_at_ms)
            WHERE delivery_id = \(p(1, "bigint"))
            """
    }

    /// Marks endpoint `$1`'s pending rows failed at `$2` with error `$3`.
    public static func abandon(_ p: Parameter) -> String {
        let at = p(2, "bigint")
        return """
            UPDATE webhook_outbox SET state = 'failed', finished_at_ms = \(at), error_at_ms = \(at), last_status = NULL,
                last_error = \(p(3, "text")), held_until_ms = 0
            WHERE state = 'pending' AND endpoint_id = \(p(1, "text"))
            """
    }

    /// Removes up to `$2` delivered or failed rows finished before `$1`.
    public static func prune(_ p: Parameter) -> String {
        """
        DELETE FROM webhook_outbox WHERE delivery_id IN (
            SELECT delivery_id FROM webhook_outbox WHERE state <> 'pending' AND finished_at_ms < \(p(1, "bigint")) LIMIT \(p(2, "int")))
        """
    }

    /// Rows per endpoint and state.
    public static let totals = "SELECT endpoint_id, state, count(*) FROM webhook_outbox GROUP BY endpoint_id, state"

    /// Pending rows per endpoint, through `webhook_outbox_pending`.
    public static let pending = "SELECT endpoint_id, count(*) FROM webhook_outbox WHERE state = 'pending' GROUP BY endpoint_id"

    /// The latest attempt of endpoint `$1` that did not succeed, through `webhook_outbox_errors`.
    public static func lastError(_ p: Parameter) -> String {
        """
        SELECT error_at_ms, last_status, last_error FROM webhook_outbox
        WHERE endpoint_id = \(p(1, "text")) AND error_at_ms IS NOT NULL ORDER BY error_at_ms DESC LIMIT 1
        """
    }

    /// The row's state, due time and finish time for `result`.
    public static func finishParameters(_ result: DeliveryResult) -> (state: String, due: Int64, finished: Int64?) {
        switch result.outcome {
        case .delivered: ("delivered", result.attemptedAtMilliseconds, result.attemptedAtMilliseconds)
        case .retry(let due): ("pending", due, nil)
        case .failed: ("failed", result.attemptedAtMilliseconds, result.attemptedAtMilliseconds)
        }
    }

    /// How many rows one prune statement removes at most, so that a prune holds the writer briefly.
    public static let pruneBatch = 1_000
}
