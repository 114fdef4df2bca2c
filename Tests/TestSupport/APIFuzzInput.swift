public import HTTP1
import JSON
import JWT
import Locking
import RatingsAPI
import RatingsCore

/// How the API fuzzer (fuzz/APIFuzz.swift) reads an input, in one place for it and for the test
/// that replays its corpus (RatingsAPITests): the bytes are HTTP/1.1 requests, read one after
/// another by the server's own parser, and each is handed in turn to an API over an in-memory
/// store emptied for the input: the open API (no tokens) and then a guarded one (HS256 bearer
/// tokens with `secret`, and a write rate limit). Reading stops where the parser refuses the
/// stream, which the server answers itself. The same two APIs serve every input, because
/// building one (every language's displays are rendered at start) held the fuzzer under 200
/// inputs a second; their caches are exact (an entry serves only the summary it was rendered
/// from), so an answer depends on the input alone, save `/metrics` counts, generated request
/// ids and the rate limit's tokens. Not for concurrent use.
public enum APIFuzzInput {
    /// One request and every answer the API gave it (exactly one is right).
    public struct Exchange {
        public let request: HTTPRequest
        public let responses: [HTTPResponse]
    }

    /// The HS256 secret the guarded API's tokens are signed with (fuzz/seeds/api/ holds tokens).
    public static let secret = "the API fuzzer's own 32-byte-or-longer secret"

    /// One API and its store.
    private final class Fixture: Sendable {
        let store = InMemoryRatingStore()
        let api: RatingsAPI?

        init(guarded: Bool) {
            guard let languages = try? LanguageCatalog.bundled() else { api = nil; return }
            var configuration = APIConfiguration(languages: languages)
            configuration.clock = ManualClock()
            configuration.openConnections = { 1 }
            configuration.errorLog = { _ in }
            if guarded {
                guard let verifier = try? JWTVerifier(secret: APIFuzzInput.secret) else { api = nil; return }
                configuration.identityVerifier = verifier
                configuration.writeLimiter = WriteRateLimiter(ratePerSecond: 1, burst: 4)
            }
            api = RatingsAPI(store: store, configuration: configuration)
        }
    }

    private static let open = Fixture(guarded: false)
    private static let guarded = Fixture(guarded: true)

    /// The requests of `input`, each with what the open API, or the guarded one, answered.
    public static func exchanges(_ input: [UInt8], guarded: Bool = false) -> [Exchange] {
        let fixture = guarded ? Self.guarded : open
        guard let api = fixture.api else { return [] }
        fixture.store.removeAll()
        let environment = RequestEnvironment(peer: "192.0.2.1", loop: TestLoop())
        return parseStream([input]).requests.map { request in
            let responses = Locked<[HTTPResponse]>([])
            api.handle(request, environment) { response in responses.withLock { $0.append(response) } }
            return Exchange(request: request, responses: responses.withLock { $0 })
        }
    }

    /// What a client would see as wrong in the answers to `input`, by the API's general
    /// rules: a request answered other than once (the in-memory store answers before `handle`
    /// returns), a 5xx (that store never fails), no request id, an error that is not problem+json
    /// with `type`, `title`, its own `status` and a `detail`, a 405 without `Allow`, a 304 without
    /// its `ETag` or with a body, or JSON that does not parse.
    public static func violations(_ input: [UInt8]) -> [String] {
        guard open.api != nil, guarded.api != nil else { return ["the APIs could not be made"] }
        return [false, true].flatMap { isGuarded in
            exchanges(input, guarded: isGuarded).compactMap { exchange -> String? in
                let api = isGuarded ? "guarded API" : "open API"
                guard exchange.responses.count == 1, let response = exchange.responses.first else {
                    return "\(api): answered \(exchange.responses.count) times"
                }
                return problem(with: response).map { "\(api): \(exchange.request.method) \(exchange.request.target): \(response.status) \($0)" }
            }
        }
    }

    private static func problem(with response: HTTPResponse) -> String? {
        let type = response.headers["content-type"]
        let json = try? JSONParser.parse(response.body)
        if response.status >= 500 { return "from a store that never fails" }
        guard let id = response.lastField?.value, !id.isEmpty else { return "without a request id" }
        switch response.status {
        case 304:
            if response.headers["etag"] == nil || !response.body.isEmpty { return "without its ETag, or with a body" }
        case 400...:
            guard type == "application/problem+json", case .string? = json?["type"], case .string? = json?["title"],
                  case .number(String(response.status))? = json?["status"], case .string(let detail)? = json?["detail"],
                  !detail.isEmpty else { return "that is not problem+json with type, title, status and detail" }
            if response.status == 405 && response.headers["allow"] == nil { return "without Allow" }
        default:
            if type == "application/json" && json == nil { return "with a body that is not JSON" }
        }
        return nil
    }
}
