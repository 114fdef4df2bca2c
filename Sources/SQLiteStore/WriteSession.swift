internal import CSQLite
import Platform
import RatingsCore

/// The writer's statements (which keep its connection open) and the rules of each write as SQL
/// steps. Used only on the writer's thread, always inside a transaction the writer opened (but for
/// the checkpoint that empties the WAL when the service stops).
final class WriteSession {
    /// The writer's `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`.
    let transaction: TransactionStatements
    private let selectItem: SQLiteStatement
    private let insertItem: SQLiteStatement
    private let setScale: SQLiteStatement
    private let selectRating: SQLiteStatement
    private let upsertRating: SQLiteStatement
    private let deleteRating: SQLiteStatement
    private let applyDelta: SQLiteStatement
    private let selectRaterRatings: SQLiteStatement
    private let deleteRaterRatings: SQLiteStatement
    private let emptyWALCheckpoint: SQLiteStatement
    private let selectReview: SQLiteStatement
    private let upsertReview: SQLiteStatement
    private let restarReview: SQLiteStatement
    private let selectReviewStatus: SQLiteStatement
    private let deleteReview: SQLiteStatement
    private let selectVote: SQLiteStatement
    private let upsertVote: SQLiteStatement
    private let deleteVote: SQLiteStatement
    private let setHelpful: SQLiteStatement
    private let setReply: SQLiteStatement
    private let selectVoterVotes: SQLiteStatement
    private let deleteVoterVotes: SQLiteStatement
    private let selectRaterReviewStatuses: SQLiteStatement
    private let deleteRaterReviews: SQLiteStatement
    private let moderation: ModerationStatements
    private let outbox: OutboxStatements
    /// Turns each write's events into outbox rows; nil when no webhooks are configured, and then
    /// no event is recorded and no item version moves.
    private let recorder: (any EventRecorder)?
    private let ranking: RankingSettings
    /// Rows and review lists changed by the transaction under way, for the cache once it
    /// commits. Keyed by the item, whose hash was computed once when the request was read: a key
    /// of text would hash it here and again in the cache.
    private var changes = ItemChanges()
    /// The outbox rows of the transaction under way, written together just before it commits
    /// (`flushOutbox`): one statement for many rows costs a write less than one for each.
    private var outboxRows: [OutboxEntry] = []

    init(connection: SQLiteConnection, ranking: RankingSettings, recorder: (any EventRecorder)?) throws(SQLiteError) {
        self.ranking = ranking
        self.recorder = recorder
        transaction = try TransactionStatements(on: connection, beginSQL: "BEGIN IMMEDIATE")
        selectRaterRatings = try connection.prepare(RatingSQL.selectRaterRatings)
        deleteRaterRatings = try connection.prepare(RatingSQL.deleteRaterRatings)
        selectItem = try connection.prepare(RatingSQL.selectItem)
        insertItem = try connection.prepare(RatingSQL.insertItem)
        setScale = try connection.prepare(RatingSQL.setScale)
        selectRating = try connection.prepare(RatingSQL.selectRating)
        upsertRating = try connection.prepare(RatingSQL.upsertRating)
        deleteRating = try connection.prepare(RatingSQL.deleteRating)
        applyDelta = try connection.prepare(RatingSQL.applyDelta)
        emptyWALCheckpoint = try connection.prepare(RatingSQL.emptyWAL)
        selectReview = try connection.prepare(RatingSQL.selectReview)
        upsertReview = try connection.prepare(RatingSQL.upsertReview)
        restarReview = try connection.prepare(RatingSQL.restarReview)
        selectReviewStatus = try connection.prepare(RatingSQL.selectReviewStatus)
        deleteReview = try connection.prepare(RatingSQL.deleteReview)
        selectVote = try connection.prepare(RatingSQL.selectVote)
        upsertVote = try connection.prepare(RatingSQL.upsertVote)
        deleteVote = try connection.prepare(RatingSQL.deleteVote)
        setHelpful = try connection.prepare(RatingSQL.setHelpful)
        setReply = try connection.prepare(RatingSQL.setReply)
        selectVoterVotes = try connection.prepare(RatingSQL.selectVoterVotes)
        deleteVoterVotes = try connection.prepare(RatingSQL.deleteVoterVotes)
        selectRaterReviewStatuses = try connection.prepare(RatingSQL.selectRaterReviewStatuses)
        deleteRaterReviews = try connection.prepare(RatingSQL.deleteRaterReviews)
        moderation = try ModerationStatements(on: connection)
        outbox = try OutboxStatements(on: connection)
    }

    /// Copies every frame of the WAL into the database file and truncates the WAL to nothing;
    /// outside any transaction. Fails when a reader's snapshot kept part of the WAL in use.
    func emptyWAL() throws(SQLiteError) {
        var blocked = 0
        try emptyWALCheckpoint.run(bind: {}, row: { blocked = emptyWALCheckpoint.int(0) })
        guard blocked == 0 else {
            throw SQLiteError(code: SQLITE_BUSY, operation: RatingSQL.emptyWAL,
                              message: "a reader still held part of the WAL; SQLite applies what is left when the file is next opened")
        }
    }

    /// Validates before writing anything, so a refused rating leaves the transaction untouched.
    func submit(_ request: SubmitRequest) throws -> SubmitOutcome {
        let (row, scale, stars) = try itemToRate(request.item, stars: request.stars, defaultScale: request.defaultScale)
        let previous = try storedStars(request.item, request.rater)
        try upsert(request.item, request.rater, stars, at: request.nowMilliseconds)
        var restarred: ReviewStatus?
        if previous != nil, previous != stars.count {
            try restarReview.run { () throws(SQLiteError) in
                try restarReview.bind(1, request.item.rawValue)
                try restarReview.bind(2, request.rater.rawValue)
                try restarReview.bind(3, stars.count)
                try restarReview.bind(4, Int(request.nowMilliseconds))
            }
            if restarReview.changes > 0 {
                changes.reviewLists.insert(request.item)
                restarred = try reviewStatus(request.item, request.rater)
            }
        }
        let events = EventDraft(EventRules.submit(previous: previous, new: stars.count, reviewed: restarred != nil), rater: request.rater,
                                stars: stars.count, status: restarred, at: request.nowMilliseconds)
        let summary = try move(request.item, from: row ?? .unrated(on: scale, isScaleExplicit: false), into: stars.count, outOf: previous,
                               recording: events)
        let rating = Rating(item: request.item, rater: request.rater, stars: stars, scale: scale,
                            updatedAtMilliseconds: request.nowMilliseconds)
        return SubmitOutcome(rating: rating, created: previous == nil, summary: summary)
    }

    func clear(_ request: ClearRequest) throws -> ClearOutcome {
        let row = try item(request.item)
        guard let row, let previous = try storedStars(request.item, request.rater) else {
            return ClearOutcome(cleared: false, summary: row?.summary(of: request.item) ?? .empty(request.item, on: request.defaultScale))
        }
        let removed = try removeReviewRow(request.item, request.rater)
        try deleteRating.run { () throws(SQLiteError) in
            try deleteRating.bind(1, request.item.rawValue)
            try deleteRating.bind(2, request.rater.rawValue)
        }
        if removed != nil { changes.reviewLists.insert(request.item) }
        let events = EventDraft(EventRules.clear(cleared: true, removedReview: removed != nil), rater: request.rater, stars: nil,
                                status: removed, at: request.nowMilliseconds)
        let summary = try move(request.item, from: row, into: nil, outOf: previous, reviews: removed == .published ? -1 : 0, recording: events)
        return ClearOutcome(cleared: true, removedReview: removed != nil, summary: summary)
    }

    /// Removes every rating and review of the rater and the votes they gave, item by item
    /// updating aggregates, scores and helpful keys, all in the transaction the writer opened.
    func erase(_ rater: RaterID) throws -> Erasure {
        var votes: [(item: ItemID, author: RaterID, helpful: Bool)] = []
        try selectVoterVotes.run(bind: { () throws(SQLiteError) in try selectVoterVotes.bind(1, rater.rawValue) }, row: {
            votes.append((ItemID(stored: selectVoterVotes.text(0)), RaterID(stored: selectVoterVotes.text(1)), selectVoterVotes.int(2) != 0))
        })
        for vote in votes {
            guard let review = try review(vote.item, vote.author) else { continue }
            try storeVotes(review.votes.moving(into: nil, outOf: vote.helpful), of: vote.item, by: vote.author)
            changes.reviewLists.insert(vote.item)
        }
        try deleteVoterVotes.run { () throws(SQLiteError) in try deleteVoterVotes.bind(1, rater.rawValue) }

        var published: [ItemID: Int] = [:], reviewed: Set<ItemID> = []
        try selectRaterReviewStatuses.run(bind: { () throws(SQLiteError) in try selectRaterReviewStatuses.bind(1, rater.rawValue) }, row: {
            reviewed.insert(ItemID(stored: selectRaterReviewStatuses.text(0)))
            changes.reviewLists.insert(ItemID(stored: selectRaterReviewStatuses.text(0)))
            if selectRaterReviewStatuses.text(1) == ReviewStatus.published.rawValue {
                published[ItemID(stored: selectRaterReviewStatuses.text(0)), default: 0] += 1
            }
        })
        try deleteRaterReviews.run { () throws(SQLiteError) in try deleteRaterReviews.bind(1, rater.rawValue) }
        try moderation.removeHistory(ofReviewsBy: rater)
        let flags = try moderation.removeFlags(placedBy: rater)

        var ratings: [(item: ItemID, stars: Int)] = []
        try selectRaterRatings.run(bind: { () throws(SQLiteError) in try selectRaterRatings.bind(1, rater.rawValue) },
                                   row: { ratings.append((ItemID(stored: selectRaterRatings.text(0)), selectRaterRatings.int(1))) })
        let now = SystemClock.wallMilliseconds()
        for (item, stars) in ratings {
            guard let row = try self.item(item) else { continue }
            _ = try move(item, from: row, into: nil, outOf: stars, reviews: -(published[item] ?? 0),
                         recording: EventDraft(EventRules.clear(cleared: true, removedReview: reviewed.contains(item)), rater: rater, stars: nil,
                                               at: now))
        }
        try deleteRaterRatings.run { () throws(SQLiteError) in try deleteRaterRatings.bind(1, rater.rawValue) }
        let erasure = Erasure(ratings: ratings.count, reviews: reviewed.count, votes: votes.count, flags: flags)
        if let recorder {
            outboxRows += recorder.entries(for: [ChangeEvent(type: .raterErased, atMilliseconds: now, subject: .rater(rater, erasure))])
        }
        return erasure
    }

    /// Writes the rating and the review; validates before writing anything, like `submit`. The
    /// status follows the request's policy, and a change it makes goes into the history.
    func writeReview(_ request: ReviewWriteRequest) throws -> ReviewWriteOutcome {
        let (row, scale, stars) = try itemToRate(request.item, stars: request.stars, defaultScale: request.defaultScale)
        let previous = try storedStars(request.item, request.rater)
        let existing = previous == nil ? nil : try review(request.item, request.rater)
        let (status, change) = request.status(replacing: existing)
        try upsert(request.item, request.rater, stars, at: request.nowMilliseconds)
        try upsertReview.run { () throws(SQLiteError) in
            try upsertReview.bind(1, request.item.rawValue)
            try upsertReview.bind(2, request.rater.rawValue)
            try upsertReview.bind(3, stars.count)
            try upsertReview.bind(4, request.title)
            try upsertReview.bind(5, request.body)
            try upsertReview.bind(6, request.language?.description)
            try upsertReview.bind(7, status.rawValue)
            try upsertReview.bind(8, Int(request.nowMilliseconds))
        }
        if let change { try moderation.append(change, to: request.item, request.rater) }
        changes.reviewLists.insert(request.item)
        let published = existing.map { $0.status.publishedChange(to: status) } ?? (status == .published ? 1 : 0)
        let types = EventRules.writeReview(previousStars: previous, newStars: stars.count, replacing: existing, text: request.text, change: change)
        let summary = try move(request.item, from: row ?? .unrated(on: scale, isScaleExplicit: false), into: stars.count, outOf: previous,
                               reviews: published,
                               recording: EventDraft(types, rater: request.rater, stars: stars.count, status: status, at: request.nowMilliseconds))
        let review = Review(item: request.item, rater: request.rater, stars: stars, scale: scale, title: request.title, body: request.body,
                            language: request.language, status: status,
                            createdAtMilliseconds: existing?.createdAtMilliseconds ?? request.nowMilliseconds,
                            updatedAtMilliseconds: request.nowMilliseconds, votes: existing?.votes ?? .none, reply: existing?.reply)
        return ReviewWriteOutcome(review: review, created: existing == nil, summary: summary, change: change)
    }

    /// Places, replaces or withdraws a flag; a flag that reaches the threshold makes the review
    /// pending here, in the flag's transaction (the writer runs one write at a time, so exactly
    /// one flag crosses it).
    func flag(_ request: FlagRequest) throws -> FlagOutcome {
        let existing = try review(request.item, request.rater)
        let hadFlag = try existing != nil && moderation.hasFlag(request.item, request.rater, by: request.flagger)
        var review = try request.target(existing, flaggerHasFlag: hadFlag)
        try moderation.store(request)
        var change: ModerationEntry?
        if request.reason != nil {
            let round = try moderation.roundFlags(request.item, request.rater)
            change = request.policy.flagsCrossing(review.status, flagsThisRound: round, at: request.nowMilliseconds)
        }
        if let change {
            try moderation.apply(change, to: request.item, request.rater, decided: false)
            try movePublished(request.item, by: review.status.publishedChange(to: change.status))
            review.status = change.status
            try emitAbout(review, [.reviewPending], at: request.nowMilliseconds)
        }
        return FlagOutcome(created: !hadFlag && request.reason != nil, review: review, change: change)
    }

    /// Records a moderator's decision and sets the status it names.
    func moderate(_ request: ModerationRequest) throws -> ModerationOutcome {
        guard var review = try review(request.item, request.rater) else { throw ReviewError.reviewNotFound(item: request.item, rater: request.rater) }
        let entry = request.entry(from: review.status)
        try moderation.apply(entry, to: request.item, request.rater, decided: true)
        try movePublished(request.item, by: review.status.publishedChange(to: entry.status))
        review.status = entry.status
        try emitAbout(review, EventRules.decision(entry), at: request.nowMilliseconds)
        return ModerationOutcome(record: try moderation.record(request.item, request.rater, status: entry.status), review: review)
    }

    /// Removes the review and its votes, keeping the rating.
    func removeReview(_ request: ClearRequest) throws -> ClearOutcome {
        let row = try item(request.item)
        guard let row, let stars = try storedStars(request.item, request.rater) else {
            return ClearOutcome(cleared: false, summary: row?.summary(of: request.item) ?? .empty(request.item, on: request.defaultScale))
        }
        guard let status = try removeReviewRow(request.item, request.rater) else {
            return ClearOutcome(cleared: false, summary: row.summary(of: request.item))
        }
        changes.reviewLists.insert(request.item)
        let summary = try move(request.item, from: row, into: stars, outOf: stars, reviews: status == .published ? -1 : 0,
                               recording: EventDraft([.reviewRemoved], rater: request.rater, stars: stars, status: status, at: request.nowMilliseconds))
        return ClearOutcome(cleared: true, removedReview: true, summary: summary)
    }

    /// Stores, replaces or removes the reply to a published review.
    func reply(_ request: ReplyRequest) throws -> ReplyOutcome {
        let review = try request.target(review(request.item, request.rater))
        let outcome = request.outcome(on: review)
        let reply = outcome.review.reply
        if reply != review.reply {
            try setReply.run { () throws(SQLiteError) in
                try setReply.bind(1, request.item.rawValue)
                try setReply.bind(2, request.rater.rawValue)
                try setReply.bind(3, reply?.body)
                try setReply.bind(4, reply?.author)
                try setReply.bind(5, reply.map { Int($0.updatedAtMilliseconds) })
            }
            changes.reviewLists.insert(request.item)
            try emitAbout(review, [.reviewReplied], at: request.nowMilliseconds)
        }
        return outcome
    }

    /// Stores, replaces or withdraws a vote on a published review of someone else.
    func vote(_ request: VoteRequest) throws -> VoteOutcome {
        let review = try request.target(review(request.item, request.rater))
        var old: Bool?
        try selectVote.run(bind: { () throws(SQLiteError) in
            try selectVote.bind(1, request.item.rawValue)
            try selectVote.bind(2, request.rater.rawValue)
            try selectVote.bind(3, request.voter.rawValue)
        }, row: { old = selectVote.int(0) != 0 })
        if let helpful = request.helpful {
            try upsertVote.run { () throws(SQLiteError) in
                try upsertVote.bind(1, request.item.rawValue)
                try upsertVote.bind(2, request.rater.rawValue)
                try upsertVote.bind(3, request.voter.rawValue)
                try upsertVote.bind(4, helpful ? 1 : 0)
            }
        } else if old != nil {
            try deleteVote.run { () throws(SQLiteError) in
                try deleteVote.bind(1, request.item.rawValue)
                try deleteVote.bind(2, request.rater.rawValue)
                try deleteVote.bind(3, request.voter.rawValue)
            }
        }
        let outcome = request.outcome(on: review, replacing: old)
        if outcome.review.votes != review.votes {
            try storeVotes(outcome.review.votes, of: request.item, by: request.rater)
            changes.reviewLists.insert(request.item)
        }
        return outcome
    }

    /// Checks for a conflict before writing anything, like `submit`.
    func configure(_ request: ConfigureRequest) throws -> ConfigureOutcome {
        let row = try item(request.item)
        if let row, row.count > 0, row.scale != request.scale {
            throw RatingError.scaleConflict(current: row.scale, requested: request.scale, ratingCount: row.count)
        }
        if row == nil {
            try insert(request.item, scale: request.scale, explicit: true)
        } else {
            try setScale.run { () throws(SQLiteError) in
                try setScale.bind(1, request.item.rawValue)
                try setScale.bind(2, request.scale.maxRating)
            }
        }
        guard let updated = try item(request.item) else {
            throw SQLiteError(code: 1, operation: RatingSQL.selectItem, message: "the item row vanished inside its transaction")
        }
        changes.rows[request.item] = updated
        let summary = updated.summary(of: request.item)
        try record(EventDraft(EventRules.configure(before: row, scale: request.scale), rater: nil, stars: nil, at: request.nowMilliseconds),
                   about: request.item, summary: summary)
        return ConfigureOutcome(created: !(row?.isScaleExplicit ?? false), summary: summary)
    }

    /// What the last transaction changed, for the cache once it is durable (or to forget after
    /// a ROLLBACK); the next transaction starts with nothing, in room of the same size.
    func takeChanges() -> ItemChanges {
        let taken = changes
        changes.removeAll()
        outboxRows.removeAll(keepingCapacity: true)
        return taken
    }

    /// Writes the transaction's outbox rows; the writer calls it just before COMMIT.
    func flushOutbox() throws(SQLiteError) {
        guard !outboxRows.isEmpty else { return }
        try outbox.append(outboxRows)
        outboxRows.removeAll(keepingCapacity: true)
    }

    private func item(_ item: ItemID) throws(SQLiteError) -> SummaryRow? {
        try selectItem.summaryRow { () throws(SQLiteError) in try selectItem.bind(1, item.rawValue) }
    }

    private func insert(_ item: ItemID, scale: Scale, explicit: Bool) throws(SQLiteError) {
        try insertItem.run { () throws(SQLiteError) in
            try insertItem.bind(1, item.rawValue)
            try insertItem.bind(2, scale.maxRating)
            try insertItem.bind(3, explicit ? 1 : 0)
        }
    }

    /// The item's row as it was (nil for a new item), its scale, and `stars` checked on it; a new
    /// item is inserted on `defaultScale` only once the stars are known to fit, so a refused
    /// rating writes nothing.
    private func itemToRate(_ item: ItemID, stars: Int, defaultScale: Scale) throws -> (row: SummaryRow?, scale: Scale, stars: Stars) {
        let row = try self.item(item)
        let scale = row?.scale ?? defaultScale
        let checked = try Stars(stars, on: scale)
        if row == nil { try insert(item, scale: scale, explicit: false) }
        return (row, scale, checked)
    }

    private func upsert(_ item: ItemID, _ rater: RaterID, _ stars: Stars, at milliseconds: Int64) throws(SQLiteError) {
        try upsertRating.run { () throws(SQLiteError) in
            try upsertRating.bind(1, item.rawValue)
            try upsertRating.bind(2, rater.rawValue)
            try upsertRating.bind(3, stars.count)
            try upsertRating.bind(4, Int(milliseconds))
        }
    }

    private func review(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> Review? {
        try selectReview.reviewRow { () throws(SQLiteError) in
            try selectReview.bind(1, item.rawValue)
            try selectReview.bind(2, rater.rawValue)
        }
    }

    private func reviewStatus(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> ReviewStatus? {
        var status: ReviewStatus?
        try selectReviewStatus.run(bind: { () throws(SQLiteError) in
            try selectReviewStatus.bind(1, item.rawValue)
            try selectReviewStatus.bind(2, rater.rawValue)
        }, row: { status = ReviewStatus(rawValue: selectReviewStatus.text(0)) ?? .pending })
        return status
    }

    /// Removes the rater's review of the item, if any; returns the status it had.
    private func removeReviewRow(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> ReviewStatus? {
        guard let status = try reviewStatus(item, rater) else { return nil }
        try deleteReview.run { () throws(SQLiteError) in
            try deleteReview.bind(1, item.rawValue)
            try deleteReview.bind(2, rater.rawValue)
        }
        return status
    }

    /// Records `events` about `item` after a write that did not move its aggregates: moves the
    /// version with a statement of its own. Nothing when no webhooks listen or there are none.
    private func record(_ events: EventDraft, about item: ItemID, summary: ItemSummary) throws(SQLiteError) {
        guard let recorder, !events.types.isEmpty else { return }
        let version = try outbox.nextVersion(of: item)
        // The row this transaction hands the cache carries the version it now has.
        changes.rows[item] = changes.rows[item]?.movingVersion(true)
        outboxRows += recorder.entries(for: events.events(item: item, version: version, summary: summary))
    }

    /// Records `types` about `review`, with its item's summary as it now is.
    private func emitAbout(_ review: Review, _ types: [EventType], at milliseconds: Int64) throws(SQLiteError) {
        guard recorder != nil, !types.isEmpty, let row = try item(review.item) else { return }
        try record(EventDraft(types, rater: review.rater, stars: review.stars.count, status: review.status, at: milliseconds),
                   about: review.item, summary: row.summary(of: review.item))
    }

    // MARK: The outbox, for the dispatcher

    func claimDeliveries(for endpoint: String, nowMilliseconds: Int64, limit: Int, leaseMilliseconds: Int64) throws(SQLiteError) -> [OutboxDelivery] {
        try outbox.claim(for: endpoint, nowMilliseconds: nowMilliseconds, limit: limit, leaseMilliseconds: leaseMilliseconds)
    }

    func finishDelivery(_ result: DeliveryResult) throws(SQLiteError) { try outbox.finish(result) }

    func pruneDeliveries(finishedBefore milliseconds: Int64) throws(SQLiteError) -> Int { try outbox.prune(finishedBefore: milliseconds) }

    func abandonDeliveries(for endpoint: String, nowMilliseconds: Int64, reason: String) throws(SQLiteError) -> Int {
        try outbox.abandon(for: endpoint, nowMilliseconds: nowMilliseconds, reason: reason)
    }

    /// Adds `delta` published reviews to the item's `reviewCount`, and marks its lists changed.
    private func movePublished(_ item: ItemID, by delta: Int) throws(SQLiteError) {
        guard delta != 0, let row = try self.item(item) else { return }
        _ = try move(item, from: row, into: nil, outOf: nil, reviews: delta)
        changes.reviewLists.insert(item)
    }

    /// Stores a review's vote counts with the helpful key computed from them.
    private func storeVotes(_ votes: HelpfulVotes, of item: ItemID, by rater: RaterID) throws(SQLiteError) {
        try setHelpful.run { () throws(SQLiteError) in
            try setHelpful.bind(1, item.rawValue)
            try setHelpful.bind(2, rater.rawValue)
            try setHelpful.bind(3, votes.up)
            try setHelpful.bind(4, votes.down)
            try setHelpful.bind(5, Int(votes.score.key))
        }
    }

    private func storedStars(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> Int? {
        var stars: Int?
        try selectRating.run(bind: { () throws(SQLiteError) in
            try selectRating.bind(1, item.rawValue)
            try selectRating.bind(2, rater.rawValue)
        }, row: { stars = selectRating.int(0) })
        return stars
    }

    /// Updates count, sum, histogram, score key (and, recording `events`, the version, with their
    /// outbox rows) in the same transaction as the rating row,
    /// from the item's row as it was (read or inserted in this transaction) and the change. The
    /// new row is computed here rather than returned by the UPDATE: this writer is the file's
    /// only one and holds its lock, so the row it read is the row the UPDATE changes, and SQLite
    /// builds a temporary table for every RETURNING (a third of the C reference's user time per rating).
    private func move(_ item: ItemID, from row: SummaryRow, into new: Int?, outOf old: Int?, reviews: Int = 0,
                      recording events: EventDraft? = nil) throws(SQLiteError) -> ItemSummary {
        // A write that records events moves the item's version in this same UPDATE.
        let recording = recorder != nil && !(events?.types.isEmpty ?? true)
        let updated = row.moving(into: new, outOf: old).movingReviews(by: reviews).movingVersion(recording)
        let key = ranking.key(count: updated.count, sum: updated.sum, scale: updated.scale)
        try applyDelta.run { () throws(SQLiteError) in
            try applyDelta.bind(1, item.rawValue)
            try applyDelta.bind(2, new)
            try applyDelta.bind(3, old)
            try applyDelta.bind(4, key.high)
            try applyDelta.bind(5, key.low)
            try applyDelta.bind(6, reviews)
            try applyDelta.bind(7, recording ? 1 : 0)
        }
        guard applyDelta.changes == 1 else {
            throw SQLiteError(code: 1, operation: RatingSQL.applyDelta, message: "the item row vanished inside its transaction")
        }
        changes.rows[item] = updated
        let summary = updated.summary(of: item)
        if recording, let recorder, let events {
            outboxRows += recorder.entries(for: events.events(item: item, version: updated.version, summary: summary))
        }
        return summary
    }
}
