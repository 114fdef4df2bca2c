/// One table `ratings copy` moves, with the primary key its rows are read in (the same order on
/// both engines: their text keys compare bytewise), so the destination's indexes grow in order.
public struct CopiedTable: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let key: [String]

    public var description: String { name }
}

/// The tables `ratings copy` moves: every table of the schema but the migrations' bookkeeping.
/// A test compares this list with the tables the migrations create on each engine, so a table
/// added later cannot be left behind.
public enum CopiedTables {
    /// Parents before children, the order rows are written in, so every foreign key holds.
    public static let all: [CopiedTable] = [
        CopiedTable(name: "settings", key: ["name"]),
        CopiedTable(name: "items", key: ["item_id"]),
        CopiedTable(name: "ratings", key: ["item_id", "rater_id"]),
        CopiedTable(name: "reviews", key: ["item_id", "rater_id"]),
        CopiedTable(name: "review_votes", key: ["item_id", "rater_id", "voter_id"]),
        CopiedTable(name: "review_flags", key: ["item_id", "rater_id", "flagger_id"]),
        CopiedTable(name: "moderation_history", key: ["entry_id"]),
        CopiedTable(name: "webhook_outbox", key: ["delivery_id"]),
    ]

    /// The table the migrations keep their own records in, which each engine writes itself.
    public static let bookkeeping = "schema_migrations"
}

/// One stored value as both engines hold it: booleans are the integers 0 and 1.
public enum CopiedValue: Sendable, Equatable {
    case null
    case integer(Int)
    case text(String)
}

/// The columns of one table, in the order both engines created them.
public typealias CopiedRow = [CopiedValue]

/// An item's ratings as counted: how many, their sum, and how many of each star (1…10).
public struct ItemTally: Sendable, Equatable, CustomStringConvertible {
    public var count: Int
    public var sum: Int
    public var stars: [Int]

    public init(count: Int = 0, sum: Int = 0, stars: [Int] = Array(repeating: 0, count: 10)) {
        self.count = count
        self.sum = sum
        self.stars = stars
    }

    public var description: String { "\(count) ratings, sum \(sum), stars 1…10 \(stars.map(String.init).joined(separator: "/"))" }

    /// The tally an `items` row stores, read by column name; nil when a column is missing or not
    /// an integer.
    public static func stored(in row: CopiedRow, columns: [String]) -> (item: String, tally: ItemTally)? {
        func integer(_ name: String) -> Int? {
            guard let index = columns.firstIndex(of: name), case .integer(let value) = row[index] else { return nil }
            return value
        }
        guard let index = columns.firstIndex(of: "item_id"), case .text(let item) = row[index],
              let count = integer("rating_count"), let sum = integer("rating_sum") else { return nil }
        var stars: [Int] = []
        for star in 1...10 {
            guard let value = integer("stars_\(star)") else { return nil }
            stars.append(value)
        }
        return (item, ItemTally(count: count, sum: sum, stars: stars))
    }
}

/// What a finished copy is checked against: the tallies the source's `items` rows store, and
/// each table's row count, both from the source's snapshot.
public struct CopyExpectation: Sendable {
    public var items: [String: ItemTally] = [:]
    public var rows: [String: Int] = [:]

    public init() {}
}

/// What the destination holds after a copy, counted there: the tallies its `items` rows store,
/// the tallies recomputed from its `ratings` rows, and each table's row count.
public struct CopyCount: Sendable {
    public var stored: [String: ItemTally]
    public var counted: [String: ItemTally]
    public var rows: [String: Int]

    public init(stored: [String: ItemTally], counted: [String: ItemTally], rows: [String: Int]) {
        self.stored = stored
        self.counted = counted
        self.rows = rows
    }

    /// Every difference from `expected`, one sentence each, items in key order; empty when every
    /// item's count, sum and distribution match in both and every table has its rows.
    public func differences(from expected: CopyExpectation) -> [String] {
        var found: [String] = []
        for table in CopiedTables.all {
            // The destination is counted before `finish` removes its marker, one settings row.
            let marker = table.name == "settings" ? 1 : 0
            let want = expected.rows[table.name] ?? 0, have = (rows[table.name] ?? 0) - marker
            if want != have { found.append("table \(table.name): the source has \(want) rows, the destination \(have)") }
        }
        for item in Set(expected.items.keys).union(stored.keys).union(counted.keys).sorted() {
            let want = expected.items[item]
            if want == nil {
                found.append("item \(item) is in the destination only")
                continue
            }
            let zero = ItemTally()
            if stored[item] != want {
                found.append("item \(item): the source stores \(want ?? zero), the destination \(stored[item]?.description ?? "no row")")
            }
            if (counted[item] ?? zero) != want {
                found.append("item \(item): the source stores \(want ?? zero), the destination's ratings add up to \(counted[item] ?? zero)")
            }
        }
        return found
    }
}

/// The statements both engines count a copy with, columns in `ItemTally`'s order: the item,
/// the count, the sum, then how many ratings of each star from 1 to 10.
public enum CopyQueries {
    /// What each item's row stores.
    public static let storedTallies = "SELECT item_id, rating_count, rating_sum, "
        + (1...10).map { "stars_\($0)" }.joined(separator: ", ") + " FROM items"
    /// What each item's ratings add up to.
    public static let countedTallies = "SELECT item_id, count(*), sum(stars), "
        + (1...10).map { "count(*) FILTER (WHERE stars = \($0))" }.joined(separator: ", ") + " FROM ratings GROUP BY item_id"
}

/// A database `ratings copy` reads: one consistent snapshot of it, held from opening to closing.
public protocol CopySource: AnyObject {
    /// The columns of `table`, in the order the schema created them.
    func columns(of table: CopiedTable) throws -> [String]
    /// How many rows `table` holds in the snapshot.
    func rowCount(of table: CopiedTable) throws -> Int
    /// Calls `each` with every row of `table` in key order, `columns` in that order.
    func rows(of table: CopiedTable, columns: [String], _ each: (CopiedRow) throws -> Void) throws
}

/// A database `ratings copy` writes: migrated, empty, marked incomplete until `finish`.
public protocol CopyDestination: AnyObject {
    /// The columns of `table`, in the order the schema created them.
    func columns(of table: CopiedTable) throws -> [String]
    /// In one transaction of its own: reads the database's state and throws the refusal
    /// `DestinationState.refusal` gives, else removes its settings rows (the source's replace
    /// them) and, when `discarding`, everything an earlier, unfinished copy left, and stores the
    /// incomplete-copy marker with the text `marker`.
    func begin(marker: String, discarding: Bool) throws
    /// Writes rows of `table` (whose columns are `columns`); called in batches, in table order.
    func write(_ rows: [CopiedRow], to table: CopiedTable, columns: [String]) throws
    /// Ends `table`: everything written to it is in place.
    func finish(_ table: CopiedTable) throws
    /// Makes the copy whole: the last rows committed and the marker removed together.
    func finish() throws
    /// Counts what the database holds now, its incomplete-copy marker still in place.
    func count() throws -> CopyCount
}

/// What a destination held before a copy began, which decides whether it may be written.
public struct DestinationState: Sendable, Equatable {
    public var items: Int
    public var events: Int
    /// The marker of an unfinished copy: where from, and when it began.
    public var incompleteCopy: String?

    public init(items: Int, events: Int, incompleteCopy: String?) {
        self.items = items
        self.events = events
        self.incompleteCopy = incompleteCopy
    }

    /// Why the database named `name` may not be written, or nil when it may: a copy goes only
    /// into a database with no items and no events, or (when `discarding`) into what an
    /// unfinished copy left, which is recognised by its marker alone.
    public func refusal(name: String, discarding: Bool) -> DatabaseCopyError? {
        if let incompleteCopy { return discarding ? nil : .destinationIncomplete(name, marker: incompleteCopy) }
        if items > 0 || events > 0 { return .destinationNotEmpty(name, items: items, events: events) }
        return nil
    }
}

/// Why `ratings copy` refused or failed, apart from the engines' own errors; `isUsage` tells a
/// refusal that the command line must change (exit 2) from a failed copy (exit 1).
public enum DatabaseCopyError: Error, Sendable, Equatable, CustomStringConvertible {
    private func counted(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    case sameDatabase(String)
    case missing(String)
    case notARatingsDatabase(String)
    case sourceOutdated(String, pending: [String])
    case sourceIncomplete(String, marker: String)
    case destinationNotEmpty(String, items: Int, events: Int)
    case destinationIncomplete(String, marker: String)
    case columnsDiffer(table: String, source: [String], destination: [String])
    case mismatch([String])

    public var isUsage: Bool {
        switch self {
        case .columnsDiffer, .mismatch: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case .sameDatabase(let name):
            "--from and --to both name \(name); copy into another database"
        case .missing(let name):
            "\(name) does not exist; --from names the database to copy from"
        case .notARatingsDatabase(let name):
            "\(name) is not a ratings database (it has no \(CopiedTables.bookkeeping) table)"
        case let .sourceOutdated(name, pending):
            "\(name) lacks migrations this binary has (\(pending.joined(separator: ", "))); run ratings migrate --database on it first"
        case let .sourceIncomplete(name, marker):
            "\(name) holds an unfinished copy (\(marker)) and cannot be copied from; copy into it again with --if-incomplete discard"
        case let .destinationNotEmpty(name, items, events):
            "\(name) already holds \(counted(items, "item")) and \(counted(events, "event")); a copy goes only into an empty database (a new file, or a new PostgreSQL database)"
        case let .destinationIncomplete(name, marker):
            "\(name) holds an unfinished copy (\(marker)); run ratings copy into it again with --if-incomplete discard, or use a new database"
        case let .columnsDiffer(table, source, destination):
            "table \(table) has columns (\(source.joined(separator: ", "))) in the source but (\(destination.joined(separator: ", "))) in the destination"
        case .mismatch(let differences):
            "the copy does not match its source: " + differences.prefix(5).joined(separator: "; ")
                + (differences.count > 5 ? "; and \(differences.count - 5) more" : "")
        }
    }
}
