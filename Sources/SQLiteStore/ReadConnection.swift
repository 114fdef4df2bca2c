import RatingsCore

/// A connection that only reads, with its statements prepared once. WAL lets readers run beside
/// the writer without waiting (sqlite.org/wal.html).
final class ReadConnection {
    private let connection: SQLiteConnection
    private let selectItem: SQLiteStatement
    private let selectRating: SQLiteStatement

    init(path: String, busyTimeoutMilliseconds: Int32) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path)
        try connection.configure(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try connection.execute("PRAGMA query_only = ON")
        // Readers touch a few hot pages per query; 1 MiB of cache each keeps RSS flat.
        try connection.execute("PRAGMA cache_size = -1024")
        selectItem = try connection.prepare(RatingSQL.selectItem)
        selectRating = try connection.prepare(RatingSQL.selectRatingWithScale)
    }

    func summary(of item: ItemID, defaultScale: Scale) throws(SQLiteError) -> ItemSummary {
        let row = try selectItem.summaryRow { () throws(SQLiteError) in try selectItem.bind(1, item.rawValue) }
        return row?.summary(of: item) ?? .empty(item, on: defaultScale)
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

    func ping() throws(SQLiteError) {
        _ = try connection.scalarText("SELECT count(*) FROM schema_migrations")
    }
}
