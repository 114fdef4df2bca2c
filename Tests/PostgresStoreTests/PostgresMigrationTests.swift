@testable import PostgresStore
import RatingsCore
import TestSupport
import Testing

@Suite("PostgreSQL migrations: once, whoever runs them, and refused when edited or unknown")
struct PostgresMigrationTests {
    @Test("eight processes migrating one database at once apply each file once")
    func concurrentMigrationsApplyOnce() async throws {
        let uri = try PostgresCluster.shared().freshDatabaseURI()
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { try PostgresRatingStore.migrate(PostgresConfiguration(uri: uri)) } }
            return try await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(results.flatMap { $0 }.sorted() == PostgresRatingStore.migrations.map(\.name).sorted())
        #expect(try PostgresRatingStore.migrate(PostgresConfiguration(uri: uri)).isEmpty)
    }

    @Test("an edited migration and one from a newer binary stop start-up, naming the file")
    func refusals() throws {
        let cluster = try PostgresCluster.shared()
        let uri = try cluster.freshDatabaseURI()
        _ = try PostgresRatingStore.migrate(PostgresConfiguration(uri: uri))
        let schema = String(uri.split(separator: "%3D").last ?? "")
        try cluster.execute("INSERT INTO \(schema).schema_migrations (name, checksum) VALUES ('0999_future.sql', 'x')")
        #expect(throws: MigrationError.unknown(name: "0999_future.sql")) { try PostgresRatingStore(PostgresConfiguration(uri: uri)) }
        try cluster.execute("DELETE FROM \(schema).schema_migrations WHERE name = '0999_future.sql'")
        try cluster.execute("UPDATE \(schema).schema_migrations SET checksum = 'edited' WHERE name = '0001_initial.sql'")
        #expect {
            try PostgresRatingStore(PostgresConfiguration(uri: uri))
        } throws: { error in
            guard case .edited(let name, _, _)? = error as? MigrationError else { return false }
            return name == "0001_initial.sql"
        }
    }

    @Test("the password is kept out of what the store writes to logs")
    func redaction() {
        #expect(PostgresConfiguration(uri: "postgresql://app:s3cret@db:5432/ratings").redacted == "postgresql://app:***@db:5432/ratings")
        #expect(PostgresConfiguration(uri: "postgres://db/ratings").redacted == "postgres://db/ratings")
        #expect(PostgresConfiguration.isURI("postgres://x") && PostgresConfiguration.isURI("postgresql://x") && !PostgresConfiguration.isURI("db.sqlite"))
    }
}
