import RatingsCore
@testable import SQLiteStore
import TestSupport
import Testing

@Suite("Migrations")
struct MigrationTests {
    @Test("migrations apply once, in order, and a second run is a no-op")
    func appliesOnceThenNoOp() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let config = SQLiteStoreConfiguration(path: dir.file("db.sqlite"))
        let first = try SQLiteRatingStore.migrate(config)
        #expect(first == SQLiteRatingStore.migrations.map(\.name))
        #expect(!first.isEmpty)
        #expect(try SQLiteRatingStore.migrate(config) == [])

        let connection = try SQLiteConnection(path: config.path)
        #expect(try connection.scalarText("SELECT group_concat(name || '=' || checksum) FROM schema_migrations")
            == SQLiteRatingStore.migrations.map { "\($0.name)=\($0.checksum)" }.joined(separator: ","))
        #expect(try connection.scalarText("PRAGMA journal_mode") == "wal")
    }

    @Test("an applied migration that was edited stops start-up naming the file")
    func refusesEditedMigration() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        _ = try SQLiteRatingStore.migrate(SQLiteStoreConfiguration(path: path))
        let original = try #require(SQLiteRatingStore.migrations.first)
        let edited = Migration(name: original.name, sql: original.sql + "\n-- edited\n")
        let connection = try SQLiteConnection(path: path)
        #expect {
            try Migrator(migrations: [edited] + SQLiteRatingStore.migrations.dropFirst()).migrate(connection)
        } throws: { error in
            guard let error = error as? MigrationError, case .edited(let name, _, _) = error else { return false }
            return name == original.name && error.description.contains(original.name)
        }
    }

    @Test("a database migrated by a newer binary stops start-up naming the unknown file")
    func refusesNewerDatabase() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("db.sqlite")
        let future = Migration(name: "9999_from_the_future.sql", sql: "CREATE TABLE later (x INTEGER);")
        _ = try Migrator(migrations: SQLiteRatingStore.migrations + [future]).migrate(SQLiteConnection(path: path))
        #expect(throws: MigrationError.unknown(name: future.name)) {
            try SQLiteRatingStore(SQLiteStoreConfiguration(path: path))
        }
    }

    @Test("a failing migration leaves nothing half-applied")
    func failingMigrationRollsBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let connection = try SQLiteConnection(path: dir.file("db.sqlite"))
        let broken = Migration(name: "0001_broken.sql", sql: "CREATE TABLE a (x INTEGER); THIS IS NOT SQL;")
        #expect(throws: SQLiteError.self) { try Migrator(migrations: [broken]).migrate(connection) }
        #expect(try connection.scalarText("SELECT count(*) FROM sqlite_schema WHERE name = 'a'") == "0")
        #expect(try connection.scalarText("SELECT count(*) FROM schema_migrations") == "0")
    }

    @Test("checksums change with the text")
    func checksumTracksText() {
        #expect(Migration(name: "a", sql: "x").checksum != Migration(name: "a", sql: "y").checksum)
        #expect(Migration(name: "a", sql: "x").checksum.count == 16)
    }
}
