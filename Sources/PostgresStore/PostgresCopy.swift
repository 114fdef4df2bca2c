internal import CLibPQ
import Platform
public import RatingsCore

/// How long `ratings copy` waits for PostgreSQL to answer at any one moment: a statement over a
/// large table may take this long to start answering, while the copy as a whole takes as long as
/// the rows need.
private let idleSeconds = 600.0

/// A PostgreSQL database read by `ratings copy`: one `REPEATABLE READ READ ONLY` transaction, so
/// every table comes from one snapshot while replicas keep writing, and no write waits for it.
/// Rows stream out with `COPY … TO STDOUT`.
public final class PostgresCopySource: CopySource {
    private let connection: PostgresConnection

    /// Connects to `configuration` and takes the snapshot; refuses a database that is not a
    /// ratings database, lacks this binary's migrations or holds an unfinished copy.
    public init(_ configuration: PostgresConfiguration) throws {
        let name = configuration.redacted
        connection = try PostgresConnection(uri: configuration.uri, applicationName: "ratings copy", deadline: SystemClock.monotonicSeconds() + 30)
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", deadline: SystemClock.monotonicSeconds() + idleSeconds)
        let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", [CopiedTables.bookkeeping], deadline: SystemClock.monotonicSeconds() + idleSeconds)
        guard exists.bool(0, 0) else { throw DatabaseCopyError.notARatingsDatabase(name) }
        let recorded = try connection.recordedChecksums(deadline: SystemClock.monotonicSeconds() + idleSeconds)
        let pending = try Migration.pending(PostgresRatingStore.migrations, recorded: recorded)
        guard pending.isEmpty else { throw DatabaseCopyError.sourceOutdated(name, pending: pending.map(\.name)) }
        if let marker = try connection.setting(SharedSettings.copyIncompleteName) {
            throw DatabaseCopyError.sourceIncomplete(name, marker: marker)
        }
    }

    public func columns(of table: CopiedTable) throws -> [String] { try connection.columns(of: table).map(\.name) }

    public func rowCount(of table: CopiedTable) throws -> Int { try connection.rowCount(of: table.name) }

    public func rows(of table: CopiedTable, columns: [String], _ each: (CopiedRow) throws -> Void) throws {
        let known = try connection.columns(of: table)
        let kinds = try columns.map { name throws(PostgresError) in
            guard let column = known.first(where: { $0.name == name }) else {
                throw PostgresError(kind: .server, sqlstate: "", operation: "COPY", message: "table \(table.name) has no column \(name)")
            }
            return CopyTextFormat.Kind(dataType: column.type)
        }
        let sql = "COPY (SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))) TO STDOUT"
        try connection.startCopy(sql, expecting: PGRES_COPY_OUT, idle: idleSeconds)
        try connection.readCopyData(idle: idleSeconds) { line in
            guard let row = CopyTextFormat.row(line, kinds: kinds) else {
                throw PostgresError(kind: .server, sqlstate: "", operation: sql,
                                    message: "a row of \(table.name) did not read as its \(kinds.count) columns: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            try each(row)
        }
    }
}

/// A PostgreSQL database written by `ratings copy`: migrated, then filled with `COPY … FROM
/// STDIN` in one transaction. The incomplete-copy marker is committed first, in a transaction of
/// its own, and removed in the data's transaction, so a copy stopped anywhere leaves a database
/// that says so (its rows rolled back). Identity columns continue after the copied rows.
public final class PostgresCopyDestination: CopyDestination {
    /// Bytes gathered before they are handed to libpq.
    private static let sendSize = 256 * 1024

    private let name: String
    private let connection: PostgresConnection
    private var copying: String?
    private var pending: [UInt8] = []

    /// Migrates the database `configuration` names (as `ratings migrate` does) and connects.
    public init(_ configuration: PostgresConfiguration) throws {
        name = configuration.redacted
        _ = try PostgresRatingStore.migrate(configuration)
        connection = try PostgresConnection(uri: configuration.uri, applicationName: "ratings copy", deadline: SystemClock.monotonicSeconds() + 30)
    }

    public func columns(of table: CopiedTable) throws -> [String] { try connection.columns(of: table).map(\.name) }

    public func begin(marker: String, discarding: Bool) throws {
        let tables = CopiedTables.all.map(\.name).joined(separator: ", ")
        try connection.execute("BEGIN", deadline: deadline)
        do {
            // Servers take row locks only: this waits for their writes and holds off new ones
            // until the marker is in place.
            try connection.execute("LOCK TABLE \(tables) IN SHARE ROW EXCLUSIVE MODE", deadline: deadline)
            let state = DestinationState(items: try connection.rowCount(of: "items"), events: try connection.rowCount(of: "webhook_outbox"),
                                         incompleteCopy: try connection.setting(SharedSettings.copyIncompleteName))
            if let refusal = state.refusal(name: name, discarding: discarding) { throw refusal }
            try connection.execute("TRUNCATE \(tables)", deadline: deadline)
            try connection.query(PostgresSQL.insertSetting, [SharedSettings.copyIncompleteName, marker], deadline: deadline)
            try connection.execute("COMMIT", deadline: deadline)
        } catch {
            _ = try? connection.execute("ROLLBACK", deadline: deadline)
            throw error
        }
        try connection.execute("BEGIN", deadline: deadline)
    }

    public func write(_ rows: [CopiedRow], to table: CopiedTable, columns: [String]) throws {
        if copying != table.name {
            try connection.startCopy("COPY \(table.name) (\(columns.joined(separator: ", "))) FROM STDIN", expecting: PGRES_COPY_IN, idle: idleSeconds)
            copying = table.name
        }
        for row in rows {
            CopyTextFormat.append(row, to: &pending)
            if pending.count >= Self.sendSize { try send() }
        }
    }

    public func finish(_ table: CopiedTable) throws {
        guard copying == table.name else { return }
        try send()
        try connection.endCopyIn(idle: idleSeconds)
        copying = nil
        let identities = try connection.query("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'YES'
            """, [table.name], deadline: deadline)
        for row in 0..<identities.rowCount {
            let column = identities.text(row, 0)
            try connection.execute("""
                SELECT setval(pg_get_serial_sequence('\(table.name)', '\(column)'), coalesce(max(\(column)), 0) + 1, false) FROM \(table.name)
                """, deadline: deadline)
        }
    }

    public func finish() throws {
        try connection.query("DELETE FROM settings WHERE name = $1", [SharedSettings.copyIncompleteName], deadline: deadline)
        try connection.execute("COMMIT", deadline: deadline)
    }

    public func count() throws -> CopyCount {
        var stored: [String: ItemTally] = [:], counted: [String: ItemTally] = [:], rows: [String: Int] = [:]
        let items = try connection.execute(CopyQueries.storedTallies, deadline: deadline)
        for row in 0..<items.rowCount { stored[items.text(row, 0)] = items.tally(row) }
        let ratings = try connection.execute(CopyQueries.countedTallies, deadline: deadline)
        for row in 0..<ratings.rowCount { counted[ratings.text(row, 0)] = ratings.tally(row) }
        for table in CopiedTables.all { rows[table.name] = try connection.rowCount(of: table.name) }
        return CopyCount(stored: stored, counted: counted, rows: rows)
    }

    private var deadline: Double { SystemClock.monotonicSeconds() + idleSeconds }

    private func send() throws(PostgresError) {
        guard !pending.isEmpty else { return }
        try connection.putCopyData(pending, idle: idleSeconds)
        pending.removeAll(keepingCapacity: true)
    }
}

extension PostgresConnection {
    /// The value of settings row `name`, nil when there is none.
    func setting(_ name: String) throws(PostgresError) -> String? {
        let rows = try query(PostgresSQL.selectSetting, [name], deadline: SystemClock.monotonicSeconds() + idleSeconds)
        return rows.rowCount > 0 ? rows.text(0, 0) : nil
    }

    /// The columns of `table` with their types, in the order the schema created them.
    fileprivate func columns(of table: CopiedTable) throws(PostgresError) -> [(name: String, type: String)] {
        let rows = try query("""
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
            """, [table.name], deadline: SystemClock.monotonicSeconds() + idleSeconds)
        return (0..<rows.rowCount).map { (rows.text($0, 0), rows.text($0, 1)) }
    }

    fileprivate func rowCount(of table: String) throws(PostgresError) -> Int {
        try execute("SELECT count(*) FROM \(table)", deadline: SystemClock.monotonicSeconds() + idleSeconds).int(0, 0)
    }
}

extension PostgresResult {
    /// Columns 1…12 of `row` as an item's tally: count, sum, then each star's count.
    fileprivate func tally(_ row: Int) -> ItemTally {
        ItemTally(count: int(row, 1), sum: int(row, 2), stars: (3...12).map { int(row, $0) })
    }
}
