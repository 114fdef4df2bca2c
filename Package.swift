// swift-tools-version: 6.0
// The ratings service: a pure rating core, our own HTTP/1.1 server, and a SQLite store.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "ratings",
    products: [
        .executable(name: "ratings", targets: ["ratings"]),
    ],
    targets: [
        // libsqlite3 from the system (Debian: libsqlite3-dev).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),

        // libpq from the system (Debian: libpq-dev), for the PostgreSQL engine.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // libcurl from the system (Debian: libcurl4-openssl-dev), the webhooks' HTTPS client.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Linux socket interfaces Glibc does not export (epoll, eventfd, accept4).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),

        // libcrypto from the system (Debian: libssl-dev), for bearer-token signatures.
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // Pure: ASCII classes, digits, hex, trimming, bounded integers, padding, base64url, FNV-1a, byte buffers.
        .target(name: "ASCIIKit", swiftSettings: strict),
        // The machine's clocks, standard streams and cores, each read or written in one place.
        .target(name: "Platform", dependencies: ["ASCIIKit"], swiftSettings: strict),
        // A lock ThreadSanitizer can see (pthread mutex), shared by the modules that lock.
        .target(name: "Locking", dependencies: ["CLinux"], swiftSettings: strict),
        // Pure: JSON reading (strict parser, exact numbers) and writing (escaping, compact writer).
        .target(name: "JSON", dependencies: ["ASCIIKit"], swiftSettings: strict),
        // Pure: rating math, display and its languages, identifiers, domain errors, the storage
        // protocol. Language files are embedded at build time.
        .target(name: "RatingsCore", dependencies: ["JSON", "ASCIIKit"], swiftSettings: strict, plugins: ["EmbedFiles"]),
        // Pure: HTTP/1.1 bytes <-> messages, limits, keep-alive decisions.
        .target(name: "HTTP1", dependencies: ["ASCIIKit", "JSON"], swiftSettings: strict),
        // IO: sockets, epoll loops, signals, lifecycle.
        .target(name: "HTTPServer", dependencies: ["HTTP1", "Platform", "CLinux", "Locking", "ASCIIKit"], swiftSettings: strict),
        // IO: SQLite storage of ratings, migrations embedded at build time.
        .target(name: "SQLiteStore", dependencies: ["RatingsCore", "Platform", "CSQLite", "Locking", "ASCIIKit"],
                swiftSettings: strict, plugins: ["EmbedFiles"]),
        // IO: PostgreSQL storage of ratings, for any number of replicas on one database.
        .target(name: "PostgresStore", dependencies: ["RatingsCore", "Platform", "CLibPQ", "Locking", "ASCIIKit"],
                swiftSettings: strict, plugins: ["EmbedFiles"]),
        // Routes, wire types and error mapping; sees storage only through RatingStore.
        .target(name: "RatingsAPI", dependencies: ["RatingsCore", "HTTP1", "Platform", "JSON", "Locking", "ASCIIKit"], swiftSettings: strict,
                plugins: ["EmbedFiles"]),
        // The service assembled: the API over a store behind the HTTP server, as serve and the tests run it.
        .target(name: "RatingsApplication", dependencies: ["RatingsAPI", "HTTPServer", "RatingsCore"], swiftSettings: strict),
        // Bearer-token (JWT) verification with libcrypto: HS256, RS256, ES256, JWK Sets, issuer and
        // audience; and the HMAC-SHA256 webhook signatures share.
        .target(name: "JWT", dependencies: ["RatingsCore", "JSON", "CCrypto", "ASCIIKit", "Locking"], swiftSettings: strict),
        // IO: change events delivered from the stores' outbox to the configured endpoints, signed,
        // with libcurl on threads of their own.
        .target(name: "Webhooks", dependencies: ["RatingsCore", "JWT", "CCurl", "ASCIIKit", "Locking", "Platform"], swiftSettings: strict),
        // The thin executable.
        .executableTarget(name: "ratings",
                          dependencies: ["RatingsApplication", "RatingsAPI", "HTTPServer", "SQLiteStore", "PostgresStore", "RatingsCore", "HTTP1", "Platform", "JWT", "ASCIIKit", "JSON",
                                         "Webhooks"],
                          swiftSettings: strict, plugins: ["EmbedFiles"]),

        // Build-time: turns migrations/*.sql, locales/*.json and openapi.yaml into Swift source, so the binary
        // needs no source tree.
        .executableTarget(name: "EmbedFilesTool", swiftSettings: strict),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),

        .target(name: "TestSupport", dependencies: ["RatingsApplication", "RatingsAPI", "HTTPServer", "SQLiteStore", "PostgresStore", "CLibPQ", "RatingsCore", "HTTP1", "JWT", "CCrypto", "Locking", "ASCIIKit", "JSON", "Webhooks"],
                path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "ASCIIKitTests", dependencies: ["ASCIIKit"], swiftSettings: strict),
        .testTarget(name: "JSONTests", dependencies: ["ASCIIKit", "JSON"], swiftSettings: strict),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: strict),
        .testTarget(name: "RatingsCoreTests", dependencies: ["RatingsCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "ASCIIKit", "JSON", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "RatingsCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["RatingsCore", "TestSupport", "SQLiteStore", "PostgresStore"], swiftSettings: strict),
        .testTarget(name: "PostgresStoreTests", dependencies: ["PostgresStore", "RatingsCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTP1", "Platform", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "WebhooksTests", dependencies: ["Webhooks", "RatingsCore", "RatingsAPI", "TestSupport", "SQLiteStore", "HTTP1",
                                                       "HTTPServer", "Locking", "ASCIIKit", "JSON"],
                    swiftSettings: strict),
        .testTarget(name: "JWTTests", dependencies: ["JWT", "RatingsCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "RatingsAPITests", dependencies: ["RatingsAPI", "RatingsCore", "TestSupport", "SQLiteStore", "JWT", "ASCIIKit"],
                    swiftSettings: strict),
        .testTarget(name: "ProgramTests", dependencies: ["TestSupport", "ratings", "SQLiteStore", "RatingsCore", "Locking"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
