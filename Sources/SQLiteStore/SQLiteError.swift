internal import CSQLite
public import RatingsCore

/// A failed SQLite call: its result code, what we were doing, and SQLite's message.
/// Messages name the SQL statement or C function, never user data (all user data is bound).
public struct SQLiteError: StorageFailure, Sendable, Equatable {
    /// The extended SQLite result code (sqlite.org/rescode.html).
    public let code: Int32
    /// The SQL or C function that failed.
    public let operation: String
    /// SQLite's own explanation.
    public let message: String

    public var description: String { "SQLite error \(code) (\(message)) during \(operation)" }
}
