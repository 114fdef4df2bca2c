import RatingsCore

/// The writer's connection and statements, and the rules of each write as SQL steps. Used only
/// on the writer's queue, always inside a transaction the writer opened.
final class WriteSession {
    let connection: SQLiteConnection
    private let selectItem: SQLiteStatement
    private let insertItem: SQLiteStatement
    private let setScale: SQLiteStatement
    private let selectRating: SQLiteStatement
    private let upsertRating: SQLiteStatement
    private let deleteRating: SQLiteStatement
    private let applyDelta: SQLiteStatement

    init(connection: SQLiteConnection) throws(SQLiteError) {
        self.connection = connection
        selectItem = try connection.prepare(RatingSQL.selectItem)
        insertItem = try connection.prepare(RatingSQL.insertItem)
        setScale = try connection.prepare(RatingSQL.setScale)
        selectRating = try connection.prepare(RatingSQL.selectRating)
        upsertRating = try connection.prepare(RatingSQL.upsertRating)
        deleteRating = try connection.prepare(RatingSQL.deleteRating)
        applyDelta = try connection.prepare(RatingSQL.applyDelta)
    }

    /// Validates before writing anything, so a refused rating leaves the transaction untouched.
    func submit(_ request: SubmitRequest) throws -> SubmitOutcome {
        let row = try item(request.item)
        let scale = row?.scale ?? request.defaultScale
        let stars = try Stars(request.stars, on: scale)
        if row == nil { try insert(request.item, scale: scale, explicit: false) }
        let previous = try storedStars(request.item, request.rater)
        try upsertRating.run { () throws(SQLiteError) in
            try upsertRating.bind(1, request.item.rawValue)
            try upsertRating.bind(2, request.rater.rawValue)
            try upsertRating.bind(3, stars.count)
            try upsertRating.bind(4, Int(request.nowMilliseconds))
        }
        let summary = try move(request.item, into: stars.count, outOf: previous)
        let rating = Rating(item: request.item, rater: request.rater, stars: stars, scale: scale,
                            updatedAtMilliseconds: request.nowMilliseconds)
        return SubmitOutcome(rating: rating, created: previous == nil, summary: summary)
    }

    func clear(_ request: ClearRequest) throws -> ClearOutcome {
        guard let previous = try storedStars(request.item, request.rater) else {
            let summary = try item(request.item)?.summary(of: request.item) ?? .empty(request.item, on: request.defaultScale)
            return ClearOutcome(cleared: false, summary: summary)
        }
        try deleteRating.run { () throws(SQLiteError) in
            try deleteRating.bind(1, request.item.rawValue)
            try deleteRating.bind(2, request.rater.rawValue)
        }
        return ClearOutcome(cleared: true, summary: try move(request.item, into: nil, outOf: previous))
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
        let summary = try item(request.item)?.summary(of: request.item) ?? .empty(request.item, on: request.scale)
        return ConfigureOutcome(created: !(row?.isScaleExplicit ?? false), summary: summary)
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

    private func storedStars(_ item: ItemID, _ rater: RaterID) throws(SQLiteError) -> Int? {
        var stars: Int?
        try selectRating.run(bind: { () throws(SQLiteError) in
            try selectRating.bind(1, item.rawValue)
            try selectRating.bind(2, rater.rawValue)
        }, row: { stars = selectRating.int(0) })
        return stars
    }

    /// Updates count, sum and histogram in the same transaction as the rating row.
    private func move(_ item: ItemID, into new: Int?, outOf old: Int?) throws(SQLiteError) -> ItemSummary {
        let row = try applyDelta.summaryRow { () throws(SQLiteError) in
            try applyDelta.bind(1, item.rawValue)
            try applyDelta.bind(2, new)
            try applyDelta.bind(3, old)
        }
        guard let row else {
            throw SQLiteError(code: 1, operation: RatingSQL.applyDelta, message: "the item row vanished inside its transaction")
        }
        return row.summary(of: item)
    }
}
