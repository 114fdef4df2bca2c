public import RatingsCore

/// Change events on PostgreSQL: written in the transaction of the write they report, and claimed
/// by the dispatchers of every replica with `FOR UPDATE SKIP LOCKED` and a lease, so each
/// delivery is in flight at one replica at a time.
extension PostgresRatingStore {
    /// Records `events` about `item` after a write that did not move its aggregates: moves the
    /// version with a statement of its own. Nothing when no webhooks listen or there are none.
    func record(_ events: EventDraft, about item: ItemID, summary: ItemSummary, _ transaction: PostgresTransaction) throws {
        guard let recorder = configuration.events, !events.types.isEmpty else { return }
        let version = Int64(try transaction.query(PostgresSQL.bumpVersion, [item.rawValue]).int(0, 0))
        transaction.send(Self.outbox(recorder.entries(for: events.events(item: item, version: version, summary: summary))))
    }

    /// Records `types` about `review`, with its item's summary as it now is.
    func emitAbout(_ review: Review, _ types: [EventType], at milliseconds: Int64, _ transaction: PostgresTransaction) throws {
        guard configuration.events != nil, !types.isEmpty,
              let row = try SummaryRow.first(of: transaction.query(PostgresSQL.selectItem, [review.item.rawValue]))
        else { return }
        try record(EventDraft(types, rater: review.rater, stars: review.stars.count, status: review.status, at: milliseconds),
                   about: review.item, summary: row.summary(of: review.item), transaction)
    }

    /// Records an event about no item (a rater's erasure).
    func emit(_ event: ChangeEvent, _ transaction: PostgresTransaction) {
        guard let recorder = configuration.events else { return }
        transaction.send(Self.outbox(recorder.entries(for: [event])))
    }

    /// The statements that store `entries` in the outbox.
    static func outbox(_ entries: [OutboxEntry]) -> [PipelinedStatement] {
        entries.map { entry in
            PipelinedStatement(PostgresSQL.insertOutbox, [entry.eventID, entry.endpoint, entry.type.rawValue, entry.payload,
                                                          String(entry.createdAtMilliseconds)])
        }
    }

    public func claimDeliveries(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64,
                                completion: @escaping StoreCompletion<[OutboxDelivery]>) {
        write(completion) { transaction in
            let rows = try transaction.query(PostgresSQL.claimDeliveries, [String(nowMilliseconds), String(nowMilliseconds + leaseMilliseconds),
                                                                           String(limit), endpoint], commit: true)
            return (0..<rows.rowCount).map { row in
                let entry = OutboxEntry(eventID: rows.text(row, 1), endpoint: rows.text(row, 2),
                                        type: EventType(rawValue: rows.text(row, 3)) ?? .raterErased, payload: rows.text(row, 4),
                                        createdAtMilliseconds: Int64(rows.int(row, 5)))
                return OutboxDelivery(id: Int64(rows.int(row, 0)), entry: entry, attempts: rows.int(row, 6),
                                      firstAttemptMilliseconds: rows.isNull(row, 7) ? nil : Int64(rows.int(row, 7)))
            }.sorted { $0.id < $1.id }
        }
    }

    public func finishDelivery(_ result: DeliveryResult, completion: @escaping StoreCompletion<Void>) {
        let (state, due, finished) = OutboxQueries.finishParameters(result)
        let failedAttempt = result.outcome != .delivered
        pool.run({ connection, deadline in
            try connection.query(PostgresSQL.finishDelivery, [
                String(result.delivery), state, String(result.firstAttemptMilliseconds), String(due), finished.map { String($0) },
                failedAttempt ? String(result.attemptedAtMilliseconds) : nil, result.status.map { String($0) }, result.error,
            ], deadline: deadline)
            return ()
        }, completion: completion)
    }

    public func abandonDeliveries(for endpoint: String, nowMilliseconds: Int64, reason: String, completion: @escaping StoreCompletion<Int>) {
        pool.run({ connection, deadline in
            try connection.query(PostgresSQL.abandonDeliveries, [endpoint, String(nowMilliseconds), reason], deadline: deadline).affectedRows
        }, completion: completion)
    }

    public func pruneDeliveries(finishedBefore beforeMilliseconds: Int64, completion: @escaping StoreCompletion<Int>) {
        pool.run({ connection, deadline in
            try connection.query(PostgresSQL.pruneDeliveries, [String(beforeMilliseconds), String(OutboxQueries.pruneBatch)],
                                 deadline: deadline).affectedRows
        }, completion: completion)
    }

    public func deliveryTotals(completion: @escaping StoreCompletion<[String: DeliveryTotals]>) {
        snapshot(completion) { transaction in
            let rows = try transaction.query(OutboxQueries.totals)
            var totals: [String: DeliveryTotals] = [:]
            for row in 0..<rows.rowCount {
                totals[rows.text(row, 0), default: DeliveryTotals()].add(rows.int(row, 2), in: rows.text(row, 1))
            }
            for endpoint in totals.keys {
                let last = try transaction.query(PostgresSQL.lastDeliveryError, [endpoint])
                guard last.rowCount > 0 else { continue }
                totals[endpoint]?.lastError = DeliveryError(atMilliseconds: Int64(last.int(0, 0)),
                                                            status: last.isNull(0, 1) ? nil : last.int(0, 1), error: last.optionalText(0, 2))
            }
            return totals
        }
    }

    public func pendingDeliveries(completion: @escaping StoreCompletion<[String: Int]>) {
        pool.run({ connection, deadline in
            let rows = try connection.query(OutboxQueries.pending, deadline: deadline)
            return Dictionary(uniqueKeysWithValues: (0..<rows.rowCount).map { (rows.text($0, 0), rows.int($0, 1)) })
        }, completion: completion)
    }
}
