import ASCIIKit
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
    /// What failed: the libpq function, or a statement named by its verb and first table
    /// (`INSERT items`), never its text.
    public let operation: String
    /// The first line of libpq's or the server's message (libpq adds indented explanations).
    public let message: String

    /// A failure of `operation` (a libpq function's name, or the statement's SQL, which is kept
    /// only as its verb and table) with `message`, of which only the first line is kept.
    public init(kind: Kind, sqlstate: String, operation: String, message: String) {
        self.kind = kind
        self.sqlstate = sqlstate
        self.operation = Self.name(ofOperation: operation)
        self.message = Self.firstLine(of: message)
    }

    public var description: String {
        let state = sqlstate.isEmpty ? "" : " SQLSTATE \(sqlstate)"
        return "PostgreSQL \(kind)\(state) (\(message)) during \(operation)"
    }

    /// A conflict between concurrent transactions that running again resolves: serialization
    /// failure (40001) or deadlock (40P01).
    var isRetryable: Bool { sqlstate == "40001" || sqlstate == "40P01" }

    /// A statement's verb and the table after its first `INTO`, `UPDATE` or `FROM`
    /// (`SELECT ratings`); a libpq function's name as it is.
    static func name(ofOperation operation: String) -> String {
        let words = operation.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        guard words.count > 1, let verb = words.first else { return operation }
        var table: Substring?
        for (index, word) in words.enumerated().dropLast() where ["INTO", "UPDATE", "FROM"].contains(word.uppercased()) {
            table = words[index + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            break
        }
        return [verb.uppercased(), table.map(String.init)].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The first non-empty line of `message`, trimmed.
    static func firstLine(of message: String) -> String {
        message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).lazy.map { $0.trimmingSpacesAndTabs() }.first { !$0.isEmpty } ?? ""
    }

}
