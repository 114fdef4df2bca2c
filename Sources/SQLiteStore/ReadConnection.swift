import RatingsCore

/// A connection that only reads, with its statements prepared once. WAL lets readers run beside
/// the writer without waiting (sqlite.org/wal.html).
final class ReadConnection {
    private let connection: SQLiteConnection
    private let selectItem: SQLiteStatement
    private let selectRating: SQLiteStatement
    private let selectStars: SQLiteStatement
    private let selectRaterPage: SQLiteStatement
    private let selectRankingPage: SQLiteStatement
    private let selectReview: SQLiteStatement
    private let selectReviewPageBranches: [ReviewSort: [SQLiteStatement]]
    private let selectRaterReviewPage: SQLiteStatement
    private let moderation: ModerationStatements
    private let outbox: OutboxStatements
    private let transaction: TransactionStatements

    init(path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path)
        try connection.configure(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA query_only = ON")
        selectItem = try connection.prepare(RatingSQL.selectItem)
        selectRating = try connection.prepare(RatingSQL.selectRatingWithScale)
        selectStars = try connection.prepare(RatingSQL.selectStars)
        selectRaterPage = try connection.prepare(RatingSQL.selectRaterPage)
        selectRankingPage = try connection.prepare(RatingSQL.selectRankingPage)
        selectReview = try connection.prepare(RatingSQL.selectReview)
        var pages: [ReviewSort: [SQLiteStatement]] = [:]
        for (sort, branches) in RatingSQL.selectReviewPageBranches {
            var statements: [SQLiteStatement] = []
            for sql in branches { statements.append(try connection.prepare(sql)) }
            pages[sort] = statements
        }
        selectReviewPageBranches = pages
        selectRaterReviewPage = try connection.prepare(RatingSQL.selectRaterReviewPage)
        moderation = try ModerationStatements(on: connection)
        outbox = try OutboxStatements(on: connection)
        transaction = try TransactionStatements(on: connection, beginSQL: "BEGIN")
    }

    /// Several items' rows (nil where an item has none), and the rater's stars on each, from one
    /// snapshot (one read transaction).
    func rows(of items: [ItemID], rater: RaterID?) throws(SQLiteError) -> [(row: SummaryRow?, stars: Int?)] {
        try transaction.beginTransaction()
        defer { try? transaction.commitTransaction() }
        var found: [(row: SummaryRow?, stars: Int?)] = []
        found.reserveCapacity(items.count)
        for item in items {
            var stars: Int?
            if let rater {
                try selectStars.run(bind: { () throws(SQLiteError) in
                    try selectStars.bind(1, item.rawValue)
                    try selectStars.bind(2, rater.rawValue)
                }, row: { stars = selectStars.int(0) })
            }
            found.append((try row(of: item), stars))
        }
        return found
    }

    func ratings(by rater: RaterID, after position: RaterPagePosition?, limit: Int, defaultScale: Scale) throws(SQLiteError) -> RaterPage {
        var ratings: [Rating] = []
        try selectRaterPage.run(bind: { () throws(SQLiteError) in
            try selectRaterPage.bind(1, rater.rawValue)
            try selectRaterPage.bind(2, Int(position?.updatedAtMilliseconds ?? .max))
            try selectRaterPage.bind(3, position?.item.rawValue ?? "")
            try selectRaterPage.bind(4, limit + 1)
        }, row: {
            ratings.append(Rating(item: ItemID(stored: selectRaterPage.text(0)), rater: rater, stars: Stars(stored: selectRaterPage.int(1)),
                                  scale: (try? Scale(maxRating: selectRaterPage.int(3))) ?? defaultScale,
                                  updatedAtMilliseconds: Int64(selectRaterPage.int(2))))
        })
        return RaterPage(cutting: ratings, limit: limit)
    }

    func topRanked(after position: RankingPosition?, limit: Int, minCount: Int, ranking: RankingSettings) throws(SQLiteError) -> RankingPage {
        var items: [ItemSummary] = []
        try selectRankingPage.run(bind: { () throws(SQLiteError) in
            try selectRankingPage.bind(1, position?.scoreHigh ?? .max)
            try selectRankingPage.bind(2, position?.scoreLow ?? .max)
            try selectRankingPage.bind(3, position?.count ?? .max)
            try selectRankingPage.bind(4, position?.item.rawValue ?? "")
            try selectRankingPage.bind(5, minCount)
            try selectRankingPage.bind(6, limit + 1)
        }, row: {
            items.append(SummaryRow(selectRankingPage, offset: 1).summary(of: ItemID(stored: selectRankingPage.text(0))))
        })
        return RankingPage(cutting: items, limit: limit, ranking: ranking)
    }

    /// The item's row, nil when it has none.
    func row(of item: ItemID) throws(SQLiteError) -> SummaryRow? {
        try selectItem.summaryRow { () throws(SQLiteError) in try selectItem.bind(1, item.rawValue) }
    }

    func rating(of item: ItemID, by rater: RaterID, defaultScale: Scale) throws(SQLiteError) -> Rating? {
        var found: Rating?
        try selectRating.run(bind: { () throws(SQLiteError) in
            try selectRating.bind(1, item.rawValue)
            try selectRating.bind(2, rater.rawValue)
        }, row: {
            found = Rating(item: item, rater: rater, stars: Stars(stored: selectRating.int(0)),
                           scale: (try? Scale(maxRating: selectRating.int(2))) ?? defaultScale,
                           updatedAtMilliseconds: Int64(selectRating.int(1)))
        })
        return found
    }

    func review(of item: ItemID, by rater: RaterID) throws(SQLiteError) -> Review? {
        try selectReview.reviewRow { () throws(SQLiteError) in
            try selectReview.bind(1, item.rawValue)
            try selectReview.bind(2, rater.rawValue)
        }
    }

    /// Branch after branch until the page and one more row are read, all from one snapshot; the
    /// scale is read once, from the item's row.
    func reviews(of item: ItemID, sort: ReviewSort, filter: ReviewFilter, after position: ReviewPosition?, limit: Int,
                 defaultScale: Scale) throws(SQLiteError) -> ItemReviewPage {
        try transaction.beginTransaction()
        defer { try? transaction.commitTransaction() }
        let maxRating = try row(of: item)?.scale.maxRating ?? defaultScale.maxRating
        let from = position ?? .start(sort)
        var fetched: [(review: Review, position: ReviewPosition)] = []
        fetched.reserveCapacity(limit + 1)
        for statement in selectReviewPageBranches[sort] ?? [] where fetched.count <= limit {
            try statement.run(bind: { () throws(SQLiteError) in
                try statement.bind(1, item.rawValue)
                try statement.bind(2, Int(from.key))
                try statement.bind(3, Int(from.createdAtMilliseconds))
                try statement.bind(4, from.rater.rawValue)
                try statement.bind(5, filter.starMask)
                try statement.bind(6, filter.language ?? "")
                try statement.bind(7, limit + 1 - fetched.count)
            }, row: {
                let review = statement.review(maxRating: maxRating)
                let key = Int64(statement.int(Int32(ReviewQueries.sortKeyColumn)))
                fetched.append((review, ReviewPosition(key: key, createdAtMilliseconds: review.createdAtMilliseconds, rater: review.rater)))
            })
        }
        return ItemReviewPage(cutting: fetched, limit: limit)
    }

    func reviews(by rater: RaterID, after position: RaterPagePosition?, limit: Int) throws(SQLiteError) -> RaterReviewPage {
        let reviews = try selectRaterReviewPage.reviewRows { () throws(SQLiteError) in
            try selectRaterReviewPage.bind(1, rater.rawValue)
            try selectRaterReviewPage.bind(2, Int(position?.updatedAtMilliseconds ?? .max))
            try selectRaterReviewPage.bind(3, position?.item.rawValue ?? "")
            try selectRaterReviewPage.bind(4, limit + 1)
        }
        return RaterReviewPage(cutting: reviews.map { ($0, RaterPagePosition($0)) }, limit: limit)
    }

    /// The review's status, flags and history from one snapshot; nil without a review.
    func moderation(of item: ItemID, by rater: RaterID) throws(SQLiteError) -> ModerationRecord? {
        try transaction.beginTransaction()
        defer { try? transaction.commitTransaction() }
        guard let review = try review(of: item, by: rater) else { return nil }
        return try moderation.record(item, rater, status: review.status)
    }

    func moderationQueue(after position: QueuePosition?, limit: Int) throws(SQLiteError) -> ModerationQueuePage {
        try moderation.queue(after: position, limit: limit)
    }

    func pendingReviews() throws(SQLiteError) -> Int { try moderation.pendingReviews() }

    /// Every endpoint's outbox rows from one snapshot.
    func deliveryTotals() throws(SQLiteError) -> [String: DeliveryTotals] {
        try transaction.beginTransaction()
        defer { try? transaction.commitTransaction() }
        return try outbox.totalsByEndpoint()
    }

    func pendingDeliveries() throws(SQLiteError) -> [String: Int] { try outbox.pendingByEndpoint() }

    func ping() throws(SQLiteError) {
        _ = try connection.scalarText("SELECT count(*) FROM schema_migrations")
    }
}
