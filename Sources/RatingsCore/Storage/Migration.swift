import ASCIIKit

/// One versioned schema change: a `.sql` file of `migrations/<engine>/`, embedded in the binary
/// at build time. Migrations apply in name order, each once, and are recorded with a checksum.
public struct Migration: Sendable, Equatable {
    /// The file name, e.g. `0001_initial.sql`.
    public let name: String
    /// The file's SQL.
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// FNV-1a 64 of the SQL, in hex: enough to notice an edited file (not a defence against tampering).
    public var checksum: String { FNV1a.hash(sql.utf8).hex }

    /// Embedded files as migrations, in the order they apply.
    public static func sorted(_ files: [(name: String, text: String)]) -> [Migration] {
        files.map { Migration(name: $0.name, sql: $0.text) }.sorted { $0.name < $1.name }
    }

    /// The rules every engine's migrator follows, given what a database has recorded (name →
    /// checksum): a recorded migration this binary lacks, or one whose file changed since it was
    /// applied, stops everything; otherwise the migrations not recorded are pending, in order.
    public static func pending(_ migrations: [Migration], recorded: [String: String]) throws(MigrationError) -> [Migration] {
        if let unknown = recorded.keys.sorted().first(where: { name in !migrations.contains { $0.name == name } }) {
            throw .unknown(name: unknown)
        }
        for migration in migrations {
            if let checksum = recorded[migration.name], checksum != migration.checksum {
                throw .edited(name: migration.name, recorded: checksum, embedded: migration.checksum)
            }
        }
        return migrations.filter { recorded[$0.name] == nil }
    }
}

/// Why a store refused to open a database, with the migration file to look at.
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
