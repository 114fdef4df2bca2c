@testable import PostgresStore
import Testing

@Suite("PostgreSQL failures as the log shows them: no SQL text, one line")
struct PostgresErrorTests {
    @Test("a statement is named by its verb and first table; a libpq function keeps its name", arguments: [
        (PostgresSQL.selectItem, "SELECT items"),
        (PostgresSQL.lockItem, "INSERT items"),
        (PostgresSQL.lockExistingItem, "SELECT items"),
        (PostgresSQL.setScale, "UPDATE items"),
        (PostgresSQL.selectRatingWithScale, "SELECT ratings"),
        ("DELETE FROM ratings WHERE rater_id = $1", "DELETE ratings"),
        ("BEGIN", "BEGIN"),
        ("begin isolation level read committed", "BEGIN"),
        ("PQconnectStartParams", "PQconnectStartParams"),
        ("connect", "connect"),
    ])
    func operationNames(sql: String, name: String) {
        #expect(PostgresError(kind: .server, sqlstate: "", operation: sql, message: "x").operation == name)
    }

    @Test("libpq's multi-line message keeps its first line; the description names kind, SQLSTATE, message and operation")
    func description() {
        let error = PostgresError(kind: .connection, sqlstate: "57P01", operation: PostgresSQL.lockItem,
                                  message: "\nserver closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.\n")
        #expect(error.message == "server closed the connection unexpectedly")
        #expect(error.description == "PostgreSQL connection SQLSTATE 57P01 (server closed the connection unexpectedly) during INSERT items")
        #expect(!error.description.contains("\n") && !error.description.contains("max_rating"))
    }
}
