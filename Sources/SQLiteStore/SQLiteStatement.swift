internal import CSQLite
import RatingsCore

/// One prepared statement, reused across calls; finalized when released.
final class SQLiteStatement {
    // Safe: produced by sqlite3_prepare_v3 on `connection`, which this object keeps alive.
    private let handle: OpaquePointer
    private let connection: SQLiteConnection
    private let sql: String

    init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// SQLite must copy bound text because Swift's buffer lives only for the call.
    // Safe: SQLITE_TRANSIENT is the documented sentinel (-1) telling SQLite to copy.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    #if DEBUG
    /// How many binds the current run made, for `run`'s check that none was left out.
    private var bindsThisRun = 0
    #endif

    /// Binds an integer to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: Int) throws(SQLiteError) {
        countBind()
        try check(sqlite3_bind_int64(handle, index, sqlite3_int64(value)))
    }

    /// Binds text to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: String) throws(SQLiteError) {
        countBind()
        var value = value
        let rc = value.withUTF8 { bytes in
            sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count), SQLiteStatement.transient)
        }
        try check(rc)
    }

    /// Binds an integer or NULL to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: Int?) throws(SQLiteError) {
        if let value {
            try bind(index, value)
        } else {
            countBind()
            try check(sqlite3_bind_null(handle, index))
        }
    }

    @inline(__always)
    private func countBind() {
        #if DEBUG
        bindsThisRun += 1
        #endif
    }

    /// Advances; true while a row is available.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let rc:
            let error = connection.error(rc, sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Makes the statement ready for its next use. Its parameters keep their values, which the
    /// next run's `bind` replaces, every one (see `run`): clearing them would cost a pass over
    /// them, each freed before it is bound again.
    func reset() {
        sqlite3_reset(handle)
    }

    /// Runs the statement with parameters bound by `bind`, handing each row to `row`. `bind` must
    /// bind every parameter, since the last run's values are still in place; the debug build
    /// checks that it made as many binds as the statement has parameters.
    func run(bind: () throws(SQLiteError) -> Void, row: () throws(SQLiteError) -> Void = {}) throws(SQLiteError) {
        defer { reset() }
        #if DEBUG
        bindsThisRun = 0
        #endif
        try bind()
        #if DEBUG
        assert(bindsThisRun == Int(sqlite3_bind_parameter_count(handle)),
               "\(sql): bound \(bindsThisRun) of \(sqlite3_bind_parameter_count(handle)) parameters")
        #endif
        while try step() { try row() }
    }

    /// Rows the connection's last INSERT, UPDATE or DELETE changed (this statement's, after `run`).
    var changes: Int { Int(sqlite3_changes(connection.handle)) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    /// The column's text, nil when it is NULL; read by its length, so a stored NUL cannot cut it.
    func optionalText(_ column: Int32) -> String? {
        guard sqlite3_column_type(handle, column) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    /// Binds text or NULL to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: String?) throws(SQLiteError) {
        if let value {
            try bind(index, value)
        } else {
            countBind()
            try check(sqlite3_bind_null(handle, index))
        }
    }

    /// The column as `ratings copy` moves it: an integer, text, or NULL. Real numbers and
    /// blobs appear in no column of the schema; were one there, it would go as its text.
    func copiedValue(_ column: Int32) -> CopiedValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int(column))
        default: .text(optionalText(column) ?? "")
        }
    }

    /// Binds a copied value to parameter `index` (1-based).
    func bind(_ index: Int32, _ value: CopiedValue) throws(SQLiteError) {
        switch value {
        case .null: try bind(index, nil as Int?)
        case .integer(let integer): try bind(index, integer)
        case .text(let text): try bind(index, text)
        }
    }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw connection.error(rc, sql) }
    }
}
