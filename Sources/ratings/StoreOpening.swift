import PostgresStore
import RatingsCore
import SQLiteStore

/// The storage engine `--database` names: a file path for SQLite, a `postgresql://` or
/// `postgres://` URI for PostgreSQL.
enum DatabaseChoice {
    case sqlite(SQLiteStoreConfiguration)
    case postgresql(PostgresConfiguration)

    init(_ text: String, poolSize: Int, ranking: RankingSettings = .standard) {
        if PostgresConfiguration.isURI(text) {
            var configuration = PostgresConfiguration(uri: text)
            configuration.poolSize = poolSize
            configuration.ranking = ranking
            self = .postgresql(configuration)
        } else {
            var configuration = SQLiteStoreConfiguration(path: text)
            configuration.ranking = ranking
            self = .sqlite(configuration)
        }
    }

    /// The same database, its writes recording their change events through `recorder`.
    func recording(_ recorder: any EventRecorder) -> DatabaseChoice {
        switch self {
        case .sqlite(var configuration):
            configuration.events = recorder
            return .sqlite(configuration)
        case .postgresql(var configuration):
            configuration.events = recorder
            return .postgresql(configuration)
        }
    }

    /// How logs name the database (a URI's password left out).
    var description: String {
        switch self {
        case .sqlite(let configuration): return configuration.path
        case .postgresql(let configuration): return configuration.redacted
        }
    }

    /// Applies pending migrations; returns the names applied.
    func migrate() throws -> [String] {
        switch self {
        case .sqlite(let configuration): return try SQLiteRatingStore.migrate(configuration)
        case .postgresql(let configuration): return try PostgresRatingStore.migrate(configuration)
        }
    }

    /// Opens the store for `serve` (migrating first), and what to call once serving has stopped:
    /// the SQLite writer finishes its queue and empties the WAL into the file, the PostgreSQL
    /// pool finishes its requests. A failure to stop cleanly goes to `log`.
    func openForServing(log: @escaping (String) -> Void) throws -> (store: any ReviewStore, close: () -> Void) {
        switch self {
        case .sqlite(var configuration):
            configuration.claimsFile = true
            let store = try SQLiteRatingStore(configuration)
            return (store, {
                do {
                    try store.stop()
                } catch {
                    log("ratings serve: could not empty the WAL into \(configuration.path) at stop: \(error)")
                }
            })
        case .postgresql(let configuration):
            let store = try PostgresRatingStore(configuration)
            return (store, { store.close() })
        }
    }
}

extension DatabaseChoice {
    /// The database as `ratings copy` reads it: one snapshot, held until the source is released.
    func openCopySource() throws -> any CopySource {
        switch self {
        case .sqlite(let configuration): return try SQLiteCopySource(path: configuration.path)
        case .postgresql(let configuration): return try PostgresCopySource(configuration)
        }
    }

    /// The database as `ratings copy` writes it: migrated first.
    func openCopyDestination() throws -> any CopyDestination {
        switch self {
        case .sqlite(let configuration): return try SQLiteCopyDestination(path: configuration.path)
        case .postgresql(let configuration): return try PostgresCopyDestination(configuration)
        }
    }
}
