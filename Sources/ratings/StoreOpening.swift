import PostgresStore
import RatingsCore
import SQLiteStore

/// The storage engine `--database` names: a file path for SQLite, a `postgresql://` or
/// `postgres://` URI for PostgreSQL.
enum DatabaseChoice {
    case sqlite(path: String)
    case postgresql(PostgresConfiguration)

    init(_ text: String, poolSize: Int) {
        if PostgresConfiguration.isURI(text) {
            var configuration = PostgresConfiguration(uri: text)
            configuration.poolSize = poolSize
            self = .postgresql(configuration)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// How logs name the database (a URI's password left out).
    var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgresql(let configuration): return configuration.redacted
        }
    }

    /// Applies pending migrations; returns the names applied.
    func migrate() throws -> [String] {
        switch self {
        case .sqlite(let path): return try SQLiteRatingStore.migrate(SQLiteStoreConfiguration(path: path))
        case .postgresql(let configuration): return try PostgresRatingStore.migrate(configuration)
        }
    }

    /// Opens the store for `serve` (migrating first), and what to call once serving has stopped:
    /// the SQLite writer finishes its queue, the PostgreSQL pool its requests.
    func openForServing() throws -> (store: any RatingStore, close: () -> Void) {
        switch self {
        case .sqlite(let path):
            var configuration = SQLiteStoreConfiguration(path: path)
            configuration.claimsFile = true
            let store = try SQLiteRatingStore(configuration)
            return (store, { store.flush() })
        case .postgresql(let configuration):
            let store = try PostgresRatingStore(configuration)
            return (store, { store.close() })
        }
    }
}
