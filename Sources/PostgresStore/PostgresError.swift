public import RatingsCore

/// A failed PostgreSQL call: what kind of failure, the SQLSTATE when the server sent one, what
/// we were doing, and libpq's or the server's primary message (never the statement's values,
/// which are always sent as parameters).
public struct PostgresError: StorageFailure, Sendable, Equatable {
    /// How a call failed.
    public enum Kind: Sendable, Equatable {
        /// No connection could be made, or it broke: the database is down or unreachable.
        case connection
        /// The request's time ran out (connecting, waiting for a connection, or a statement).
        case timeout
        /// The server refused a statement; `sqlstate` says why.
        case server
    }

    public let kind: Kind
    /// The five-character SQLSTATE (`40001`), or "" when the failure did not come from the server.
    public let sqlstate: String
    /// The statement or libpq function that failed.
    public let operation: String
    public let message: String

    public var description: String {
        let state = sqlstate.isEmpty ? "" : " SQLSTATE \(sqlstate)"
        return "PostgreSQL \(kind)\(state) (\(message)) during \(operation)"
    }

    /// A conflict between concurrent transactions that running again resolves: serialization
    /// failure (40001) or deadlock (40P01).
    var isRetryable: Bool { sqlstate == "40001" || sqlstate == "40P01" }

    /// Whether the connection can no longer be used.
    var breaksConnection: Bool { kind != .server }
}
