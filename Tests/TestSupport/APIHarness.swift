import ASCIIKit
import Dispatch
import Glibc
public import HTTP1
public import HTTPServer
import Locking
public import RatingsAPI
public import RatingsCore
import SQLiteStore
import RatingsApplication

/// The service in-process, wired as `ratings serve` wires it (`RatingsApplication.make`), over
/// a fresh store of any engine. Requests go `direct`ly to the API's handler, built in memory as
/// the server would hand them over (fast and deterministic), or over a real `socket` to our server
/// on `127.0.0.1:0`, for what the server adds (framing, `Date`, `Content-Length`, HEAD, limits).
/// The clock is a `ManualClock` in both.
public final class APIHarness: Sendable {
    /// How requests reach the API.
    public enum Transport: Sendable {
        /// Handed to the API's handler in memory; no socket, no server.
        case direct
        /// Sent over a fresh loopback connection to a running server.
        case socket
    }

    public let api: RatingsAPI
    public let store: any ReviewStore
    public let clock: ManualClock
    /// The server's port when requests go over a socket.
    public let port: Int?
    /// The running server when requests go over a socket.
    public let server: HTTPServer?
    private let accessLogFD: Int32?
    private let loop = TestLoop()
    private let errors = Locked<[String]>([])

    public init(store: any ReviewStore = InMemoryRatingStore(), defaultMaxRating: Int = 5, verifier: (any IdentityVerifier)? = nil,
                writeLimiter: WriteRateLimiter? = nil, logFormat: LogFormat = .text, clock: ManualClock = ManualClock(),
                moderation: ModerationPolicy = .standard, webhooks: (any WebhookMonitor)? = nil, transport: Transport = .direct,
                configureServer: (inout ServerConfiguration) -> Void = { _ in }) throws {
        self.store = store
        self.clock = clock
        var configuration = APIConfiguration(languages: try LanguageCatalog.bundled())
        configuration.defaultScale = try Scale(maxRating: defaultMaxRating)
        configuration.identityVerifier = verifier
        configuration.writeLimiter = writeLimiter
        configuration.logFormat = logFormat
        configuration.clock = clock
        configuration.moderation = moderation
        configuration.webhooks = webhooks
        let errors = self.errors
        configuration.errorLog = { line in errors.withLock { $0.append(line) } }
        // Only a server that will run gets a test server's settings (and its /dev/null descriptor).
        let server = transport == .socket ? ServerConfiguration.forTests(configureServer) : ServerConfiguration()
        let application = RatingsApplication.make(store: store, api: configuration, server: server)
        api = application.api
        switch transport {
        case .direct:
            (self.server, port, accessLogFD) = (nil, nil, nil)
        case .socket:
            do {
                port = try application.server.start()
            } catch {
                close(server.accessLogFD)
                throw error
            }
            (self.server, accessLogFD) = (application.server, server.accessLogFD)
        }
    }

    /// The database file when the store is SQLite.
    public var databasePath: String? { (store as? SQLiteRatingStore)?.path }

    /// Stops the server, if one runs; `withAPI` calls it.
    public func stop() {
        guard let server, let accessLogFD else { return }
        server.beginDrain()
        server.waitUntilStopped()
        close(accessLogFD)
    }

    /// Access-log lines written so far.
    public var accessLog: [String] { loop.lines }
    /// Error-log lines written so far.
    public var errorLog: [String] { errors.withLock { $0 } }

    /// One request; waits for its response. `\n` in header values is not allowed (as on the wire).
    /// Over a socket, a connection that fails answers status -1 with the reason as its body.
    public func request(_ method: String, _ target: String, json: String? = nil, body: [UInt8]? = nil,
                        headers: [String: String] = [:], headerLines: [(String, String)] = [],
                        version: HTTPVersion = .http11) -> RawHTTPClient.Response {
        if let port {
            precondition(body == nil && headerLines.isEmpty && version == .http11, "over a socket, send raw bytes with RawHTTPClient")
            do {
                return try RawHTTPClient.request(port: port, method, target, json: json, headers: headers)
            } catch {
                return RawHTTPClient.Response(status: -1, headers: [], body: Array("\(error)".utf8))
            }
        }
        var fields: [(String, String)] = [("host", "test")]
        if json != nil && headers.keys.contains(where: { $0.lowercased() == "content-type" }) == false {
            fields.append(("content-type", "application/json"))
        }
        fields += headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + headerLines
        let bytes = body ?? json.map { Array($0.utf8) } ?? []
        let request = HTTPRequest(head: HTTPRequestHead(method: method, target: target, version: version, headers: HTTPHeaders(fields)),
                                  body: bytes)
        return send(request)
    }

    /// Hands `request` to the API and waits for its one response.
    public func send(_ request: HTTPRequest) -> RawHTTPClient.Response {
        let answer = Locked<HTTPResponse?>(nil)
        let arrived = DispatchSemaphore(value: 0)
        api.handle(request, RequestEnvironment(peer: "192.0.2.1", loop: loop)) { response in
            answer.withLock { $0 = response }
            arrived.signal()
        }
        guard arrived.wait(timeout: .now() + 10) == .success, let response = answer.withLock({ $0 }) else {
            return RawHTTPClient.Response(status: -1, headers: [], body: Array("no response within 10 s".utf8))
        }
        // The last field (the request id) is kept apart; the serializer writes it after the others.
        let fields = response.headers.map { ($0.name, $0.value) } + (response.lastField.map { [($0.name, $0.value)] } ?? [])
        return RawHTTPClient.Response(status: response.status, headers: fields, body: response.body)
    }
}

/// Runs `body` with a fresh harness over a fresh store of `engine` (see `APIHarness.init` for the
/// settings), then stops its server and removes the store.
public func withAPI<T>(_ engine: TestEngine = .memory, store given: (any ReviewStore)? = nil, storeOptions: TestEngine.Options = .init(),
                       defaultMaxRating: Int = 5, verifier: (any IdentityVerifier)? = nil, writeLimiter: WriteRateLimiter? = nil,
                       logFormat: LogFormat = .text, clock: ManualClock = ManualClock(), moderation: ModerationPolicy = .standard,
                       webhooks: (any WebhookMonitor)? = nil, over transport: APIHarness.Transport = .direct, configureServer: (inout ServerConfiguration) -> Void = { _ in },
                       _ body: (APIHarness) async throws -> T) async throws -> T {
    let (store, remove) = try given.map { ($0, {}) } ?? engine.makeStore(storeOptions)
    defer { remove() }
    let harness = try APIHarness(store: store, defaultMaxRating: defaultMaxRating, verifier: verifier, writeLimiter: writeLimiter,
                                 logFormat: logFormat, clock: clock, moderation: moderation, webhooks: webhooks, transport: transport,
                                 configureServer: configureServer)
    defer { harness.stop() }
    return try await body(harness)
}
