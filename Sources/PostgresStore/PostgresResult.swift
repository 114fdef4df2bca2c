internal import CLibPQ

/// Owns one `PGresult`: the rows of a statement, read as text (libpq's text format) and cleared
/// when released.
final class PostgresResult {
    // Safe: returned by PQgetResult, owned here alone and cleared once, in deinit.
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows an INSERT, UPDATE or DELETE changed (PQcmdTuples); 0 for any other statement.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// A column as text; "" for NULL or for a row or column that does not exist.
    func text(_ row: Int, _ column: Int) -> String {
        guard let value = PQgetvalue(handle, Int32(row), Int32(column)) else { return "" }
        return String(cString: value)
    }

    /// An integer column; 0 for NULL (callers check `isNull` where NULL means something).
    func int(_ row: Int, _ column: Int) -> Int { Int(text(row, column)) ?? 0 }

    /// A boolean column (`t`/`f`).
    func bool(_ row: Int, _ column: Int) -> Bool { text(row, column) == "t" }

    /// The error this result carries, as a `PostgresError`.
    func error(operation: String) -> PostgresError {
        let sqlstate = PQresultErrorField(handle, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let primary = PQresultErrorField(handle, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? "unknown error"
        return PostgresError(kind: .server, sqlstate: sqlstate, operation: operation, message: primary)
    }
}
