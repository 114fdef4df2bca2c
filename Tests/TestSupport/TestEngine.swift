import Foundation
import PostgresStore
public import RatingsCore
import SQLiteStore

/// A storage engine the parameterized suites run against: the in-memory model, SQLite on a
/// fresh file, PostgreSQL on a fresh schema of the run's private cluster.
public enum TestEngine: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory, sqlite, postgresql

    public var description: String { rawValue }

    /// The engines this run tests: `RATINGS_TEST_ENGINES` (comma-separated) or all of them.
    public static let all: [TestEngine] = {
        guard let list = ProcessInfo.processInfo.environment["RATINGS_TEST_ENGINES"], !list.isEmpty else { return allCases }
        return list.split(separator: ",").compactMap { TestEngine(rawValue: String($0).trimmingCharacters(in: .whitespaces)) }
    }()

    /// The real engines among those this run tests.
    public static let durable: [TestEngine] = all.filter { $0 != .memory }

    /// Settings of the store a test asks for beyond the defaults.
    public struct Options: Sendable {
        /// Where SQLite's fresh directory is made (a small disk, say); the system's temporary
        /// directory when nil.
        public var parentDirectory: String?
        /// How long a SQLite write waits for another process's lock.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// Records each write's events in the outbox (durable engines only).
        public var events: (any EventRecorder)?

        public init(parentDirectory: String? = nil, busyTimeoutMilliseconds: Int32 = 5_000, events: (any EventRecorder)? = nil) {
            self.parentDirectory = parentDirectory
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.events = events
        }
    }

    /// A fresh, empty store, and what removes it.
    public func makeStore(_ options: Options = Options()) throws -> (store: any ReviewStore, remove: @Sendable () -> Void) {
        switch self {
        case .memory:
            return (InMemoryRatingStore(), {})
        case .sqlite:
            let directory = try options.parentDirectory.map { try TemporaryDirectory(at: $0) } ?? TemporaryDirectory("ratings-engine")
            var configuration = SQLiteStoreConfiguration(path: directory.file("ratings.sqlite"))
            configuration.busyTimeoutMilliseconds = options.busyTimeoutMilliseconds
            configuration.claimsFile = true // as `ratings serve` opens it, so its cache is on
            configuration.events = options.events
            let store = try SQLiteRatingStore(configuration)
            return (store, { store.flush(); directory.remove() })
        case .postgresql:
            var configuration = PostgresConfiguration(uri: try PostgresCluster.shared().freshDatabaseURI())
            // These suites check what the engines store, not the request deadline (the replica
            // tests do, through the server: 503 within 5 s). Under ThreadSanitizer, on a host whose
            // hypervisor takes a third of the machine, 500 writes queued on one item's row lock
            // outlasted the 4.5 s default once in CI, and a correct store failed a count.
            configuration.requestTimeoutSeconds = 30
            configuration.events = options.events
            let store = try PostgresRatingStore(configuration)
            return (store, { store.close() })
        }
    }
}

/// Runs `body` with a fresh store of `engine`, removed afterwards.
public func withStore<T>(_ engine: TestEngine, options: TestEngine.Options = .init(), _ body: (any ReviewStore) async throws -> T)
    async throws -> T {
    let (store, remove) = try engine.makeStore(options)
    defer { remove() }
    return try await body(store)
}
