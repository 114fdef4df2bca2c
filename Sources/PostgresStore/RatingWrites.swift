import RatingsCore

/// A rating write waiting for a pool worker, with where its answer goes.
struct PendingSubmit: Sendable {
    let request: SubmitRequest
    let completion: StoreCompletion<SubmitOutcome>
}

/// The rating writes of the PostgreSQL store (`PUT` of a rating), in as few round trips and
/// commits as the load allows. A write alone is one round trip (`PostgresTransaction`): BEGIN,
/// the item locked (created if new), `PostgresSQL.rate` and COMMIT. The writes that waited
/// for a worker together (`RequestBatcher`) go in one transaction, one pipeline and one commit:
/// each item locked in item order (so two batches never wait on each other in a circle), each
/// write's `rate` in arrival order per item, so a later write to an item reads the earlier one.
/// A write whose stars are past its item's scale writes nothing and is refused on its own; a
/// batch that fails for any other reason is rolled back and its writes run alone, each with its
/// own outcome.
struct RatingWrites: Sendable {
    let configuration: PostgresConfiguration
    /// `PostgresSQL.rate` under the store's ranking settings.
    let rate: String

    /// Writes how many a batch takes at most: enough to fill a commit under any load the pool sees.
    static let batchLimit = 64

    func run(_ batch: [PendingSubmit], _ connection: PostgresConnection, _ deadline: Double) {
        // Stars no scale admits are refused alone, before any write.
        for pending in batch where !Scale.allowed.contains(pending.request.stars) {
            pending.completion(Result { try alone(pending.request, connection, deadline) })
        }
        let batch = batch.filter { Scale.allowed.contains($0.request.stars) }
        if batch.count > 1 {
            do {
                let outcomes = try written(batch.map(\.request), connection, deadline)
                for (pending, outcome) in zip(batch, outcomes) {
                    pending.completion(Result { try outcome ?? alone(pending.request, connection, deadline) })
                }
                return
            } catch {
                // `written` rolled the batch back; each write runs again on its own.
            }
        }
        for pending in batch { pending.completion(Result { try alone(pending.request, connection, deadline) }) }
    }

    /// One write in its own transaction, again after a serialization failure or deadlock, or
    /// after a refusal when the item's scale has changed since.
    func alone(_ request: SubmitRequest, _ connection: PostgresConnection, _ deadline: Double) throws -> SubmitOutcome {
        var attempt = 0
        while true {
            do {
                if Scale.allowed.contains(request.stars), let outcome = try written([request], connection, deadline)[0] { return outcome }
                // Refused as past the item's scale: the 422 names the scale as it now is.
                let rows = try connection.query(PostgresSQL.selectItem, [request.item.rawValue], deadline: deadline)
                _ = try Stars(request.stars, on: SummaryRow.first(of: rows)?.scale ?? request.defaultScale)
                // The scale changed meanwhile (an item without ratings) and now admits them.
                guard attempt < configuration.maxRetries else {
                    throw PostgresError(kind: .server, sqlstate: "40001", operation: rate, message: "the item's scale kept changing during the write")
                }
                attempt += 1
            } catch let failure as PostgresError where failure.isRetryable && attempt < configuration.maxRetries {
                attempt += 1
            }
        }
    }

    /// Sends `requests` in one pipeline and commits them (`PostgresTransaction`: BEGIN, the
    /// writes and COMMIT in one round trip; with webhooks the outbox rows and COMMIT in a
    /// second); answers each one's outcome in their order, nil for one refused as past its item's
    /// scale (it wrote nothing). On an error the transaction is rolled back.
    private func written(_ requests: [SubmitRequest], _ connection: PostgresConnection, _ deadline: Double) throws -> [SubmitOutcome?] {
        let recorder = configuration.events
        // Items in order, writes to one item in arrival order.
        let order = requests.indices.sorted { (requests[$0].item.rawValue, $0) < (requests[$1].item.rawValue, $1) }
        var statements: [PipelinedStatement] = []
        for index in order {
            let request = requests[index]
            let (item, rater, stars, now) = (request.item.rawValue, request.rater.rawValue, String(request.stars), String(request.nowMilliseconds))
            // Stars past the default scale fit only an item that exists on a larger one.
            statements.append(request.stars <= request.defaultScale.maxRating
                              ? PipelinedStatement(PostgresSQL.lockItem, [item, String(request.defaultScale.maxRating)])
                              : PipelinedStatement(PostgresSQL.lockExistingItem, [item]))
            statements.append(PipelinedStatement(rate, [item, rater, stars, now, recorder != nil ? "true" : "false"]))
        }
        let transaction = PostgresTransaction(connection, deadline: deadline)
        do {
            let results = try transaction.queries(statements, commit: recorder == nil)
            var outcomes = [SubmitOutcome?](repeating: nil, count: requests.count)
            var entries: [OutboxEntry] = []
            for (position, index) in order.enumerated() {
                guard let (outcome, version, events) = rated(requests[index], results[2 * position + 1]) else { continue }
                outcomes[index] = outcome
                if let recorder, !events.types.isEmpty {
                    entries += recorder.entries(for: events.events(item: requests[index].item, version: version, summary: outcome.summary))
                }
            }
            transaction.send(PostgresRatingStore.outbox(entries))
            try transaction.commit()
            return outcomes
        } catch {
            transaction.rollBack()
            throw error
        }
    }

    /// A write's outcome from its `rate` result, with the item's new version and the events the
    /// write emits; nil when `rate` wrote nothing (stars past the scale, or no such item).
    private func rated(_ request: SubmitRequest, _ row: PostgresResult) -> (outcome: SubmitOutcome, version: Int64, events: EventDraft)? {
        guard row.rowCount == 1 else { return nil }
        let previous = row.isNull(0, 0) ? nil : row.int(0, 0)
        let status = row.isNull(0, 1) ? nil : ReviewStatus(rawValue: row.text(0, 1)) ?? .pending
        let item = SummaryRow(row, offset: 2)
        let rating = Rating(item: request.item, rater: request.rater, stars: Stars(stored: request.stars), scale: item.scale,
                            updatedAtMilliseconds: request.nowMilliseconds)
        let events = EventDraft(EventRules.submit(previous: previous, new: request.stars, reviewed: status != nil), rater: request.rater,
                                stars: request.stars, status: status, at: request.nowMilliseconds)
        return (SubmitOutcome(rating: rating, created: previous == nil, summary: item.summary(of: request.item)), version: item.version, events)
    }
}
