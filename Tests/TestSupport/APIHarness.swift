import ASCIIKit
import Dispatch
public import HTTP1
import Locking
public import RatingsAPI
public import RatingsCore

/// The API called directly, with no socket: requests are built in memory and handed to the
/// API's handler, as the server would hand them over. The default store is in memory and the
/// clock is a `ManualClock`, so these tests are fast and deterministic; what the server itself
/// does (framing, `Date`, `Content-Length`, dropping HEAD bodies) is tested through real sockets.
public final class APIHarness: Sendable {
    public let api: RatingsAPI
    public let store: any RatingStore
    public let clock: ManualClock
    private let loop = TestLoop()
    private let errors = Locked<[String]>([])

    public init(store: any RatingStore = InMemoryRatingStore(), defaultMaxRating: Int = 5, verifier: (any IdentityVerifier)? = nil,
                writeLimiter: WriteRateLimiter? = nil, logFormat: LogFormat = .text, clock: ManualClock = ManualClock()) throws {
        self.store = store
        self.clock = clock
        var configuration = APIConfiguration(languages: try LanguageCatalog.bundled())
        configuration.defaultScale = try Scale(maxRating: defaultMaxRating)
        configuration.identityVerifier = verifier
        configuration.writeLimiter = writeLimiter
        configuration.logFormat = logFormat
        configuration.clock = clock
        configuration.openConnections = { 1 }
        let errors = self.errors
        configuration.errorLog = { line in errors.withLock { $0.append(line) } }
        api = RatingsAPI(store: store, configuration: configuration)
    }

    /// Access-log lines written so far.
    public var accessLog: [String] { loop.lines }
    /// Error-log lines written so far.
    public var errorLog: [String] { errors.withLock { $0 } }

    /// One request; waits for its response. `\n` in header values is not allowed (as on the wire).
    public func request(_ method: String, _ target: String, json: String? = nil, body: [UInt8]? = nil,
                        headers: [String: String] = [:], headerLines: [(String, String)] = [],
                        version: HTTPVersion = .http11) -> RawHTTPClient.Response {
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
        // The request id is a field of its own, which the serializer writes after the others.
        let fields = response.headers.map { ($0.name, $0.value) } + (response.requestID.map { [("x-request-id", $0)] } ?? [])
        return RawHTTPClient.Response(status: response.status, headers: fields, body: response.body)
    }
}

/// Runs `body` with a fresh harness over a fresh store of `engine` (see `APIHarness.init` for the
/// settings), and removes the store afterwards.
public func withAPI<T>(_ engine: TestEngine = .memory, store given: (any RatingStore)? = nil, defaultMaxRating: Int = 5,
                       verifier: (any IdentityVerifier)? = nil, writeLimiter: WriteRateLimiter? = nil, logFormat: LogFormat = .text,
                       clock: ManualClock = ManualClock(), _ body: (APIHarness) async throws -> T) async throws -> T {
    let (store, remove) = try given.map { ($0, {}) } ?? engine.makeStore()
    defer { remove() }
    return try await body(APIHarness(store: store, defaultMaxRating: defaultMaxRating, verifier: verifier, writeLimiter: writeLimiter,
                                     logFormat: logFormat, clock: clock))
}
