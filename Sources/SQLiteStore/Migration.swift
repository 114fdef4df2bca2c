import ASCIIKit

/// One versioned schema change: a file of `migrations/`, embedded in the binary at build time.
public struct Migration: Sendable, Equatable {
    /// The file name, e.g. `0001_initial.sql`; migrations apply in name order.
    public let name: String
    /// The file's SQL.
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// FNV-1a 64 of the SQL, in hex: enough to notice an edited file (not a defence against tampering).
    public var checksum: String { FNV1a.hash(sql.utf8).hex }

    /// Every migration this binary carries, in order.
    public static var bundled: [Migration] {
        embeddedMigrationFiles.map { Migration(name: $0.name, sql: $0.text) }.sorted { $0.name < $1.name }
    }
}
