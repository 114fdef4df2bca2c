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

/// Why the store refused to open a database, with the migration file to look at.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An applied migration's file changed after it was applied.
    case edited(name: String, recorded: String, embedded: String)
    /// The database records a migration this binary does not have: a newer binary migrated it.
    case unknown(name: String)

    public var description: String {
        switch self {
        case let .edited(name, recorded, embedded):
            return "migration \(name) was edited after it was applied (recorded checksum \(recorded), this binary has \(embedded)); restore the original file and add a new migration instead"
        case let .unknown(name):
            return "the database has migration \(name), which this binary does not know: it was migrated by a newer binary; run that binary or restore a backup"
        }
    }
}
