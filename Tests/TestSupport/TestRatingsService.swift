public import HTTPServer
public import RatingsAPI
public import RatingsCore
public import SQLiteStore
import RatingsApplication

/// The whole service in-process, wired exactly as `ratings serve` wires it: a real SQLite file
/// in a fresh directory, the API over it, our server on `127.0.0.1:0`. For the tests that are
/// about that wiring; the API's own rules are tested through `APIHarness`.
public struct TestService: Sendable {
    public let port: Int
    public let databasePath: String
    public let server: HTTPServer
    public let store: SQLiteRatingStore

    /// One request on a fresh connection.
    public func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        try RawHTTPClient.request(port: port, method, path, json: json, headers: headers)
    }
}

public func withRatingsService<T>(defaultMaxRating: Int = 5, verifier: (any IdentityVerifier)? = nil,
                                  writeLimiter: WriteRateLimiter? = nil, busyTimeoutMilliseconds: Int32 = 5_000,
                                  directory parent: String? = nil,
                                  configureServer: (inout ServerConfiguration) -> Void = { _ in },
                                  _ body: (TestService) async throws -> T) async throws -> T {
    let directory = try parent.map { try TemporaryDirectory(at: $0) } ?? TemporaryDirectory("ratings-api")
    defer { directory.remove() }
    let path = directory.file("ratings.sqlite")
    var storeConfiguration = SQLiteStoreConfiguration(path: path)
    storeConfiguration.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    storeConfiguration.claimsFile = true
    let store = try SQLiteRatingStore(storeConfiguration)
    var configuration = APIConfiguration(languages: try LanguageCatalog.bundled())
    configuration.defaultScale = try Scale(maxRating: defaultMaxRating)
    configuration.errorLog = { _ in }
    configuration.identityVerifier = verifier
    configuration.writeLimiter = writeLimiter
    return try await withTestServer(configure: configureServer, serving: { RatingsApplication.make(store: store, api: configuration, server: $0).server }) { port, server in
        try await body(TestService(port: port, databasePath: path, server: server, store: store))
    }
}
