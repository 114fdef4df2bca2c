public import HTTP1
import JSON
import Locking
import RatingsAPI
import RatingsCore

/// How the API fuzzer (fuzz/APIFuzz.swift) reads an input, in one place for it and for the test
/// that replays its corpus (RatingsAPITests): the bytes are HTTP/1.1 requests, read one after
/// another by the server's own parser, and each is handed in turn to the API over an in-memory
/// store emptied for the input. Reading stops where the parser refuses the stream, which the
/// server answers itself. One API serves every input, because building one (every language's
/// displays are rendered at start) held the fuzzer under 200 inputs a second; its caches are
/// exact (an entry serves only the summary it was rendered from), so an answer depends on the
/// input alone, save `/metrics` counts and generated request ids. Not for concurrent use.
public enum APIFuzzInput {
    /// One request and every answer the API gave it (exactly one is right).
    public struct Exchange {
        public let request: HTTPRequest
        public let responses: [HTTPResponse]
    }

    private static let store = InMemoryRatingStore()
    private static let api: RatingsAPI? = {
        guard let languages = try? LanguageCatalog.bundled() else { return nil }
        var configuration = APIConfiguration(languages: languages)
        configuration.clock = ManualClock()
        configuration.openConnections = { 1 }
        configuration.errorLog = { _ in }
        return RatingsAPI(store: store, configuration: configuration)
    }()

    /// The requests of `input`, each with what the API answered.
    public static func exchanges(_ input: [UInt8]) -> [Exchange] {
        guard let api else { return [] }
        store.removeAll()
        let environment = RequestEnvironment(peer: "192.0.2.1", loop: TestLoop())
        var parser = HTTPRequestParser()
        var rest = input
        var exchanges: [Exchange] = []
        while !rest.isEmpty {
            let (outcome, consumed) = rest.withUnsafeBytes { parser.parse($0) }
            rest.removeFirst(consumed)
            guard case .request(let request) = outcome else { break }
            let responses = Locked<[HTTPResponse]>([])
            api.handle(request, environment) { response in responses.withLock { $0.append(response) } }
            exchanges.append(Exchange(request: request, responses: responses.withLock { $0 }))
        }
        return exchanges
    }

    /// What a client would see as wrong in the answers to `input`, by the contract's general
    /// rules: a request answered other than once (the in-memory store answers before `handle`
    /// returns), a 5xx (that store never fails), no request id, an error that is not problem+json
    /// with `type`, `title`, its own `status` and a `detail`, a 405 without `Allow`, a 304 without
    /// its `ETag` or with a body, or JSON that does not parse.
    public static func violations(_ input: [UInt8]) -> [String] {
        guard api != nil else { return ["the bundled languages did not load"] }
        return exchanges(input).compactMap { exchange -> String? in
            guard exchange.responses.count == 1, let response = exchange.responses.first else {
                return "answered \(exchange.responses.count) times"
            }
            return problem(with: response).map { "\(exchange.request.method) \(exchange.request.target): \(response.status) \($0)" }
        }
    }

    private static func problem(with response: HTTPResponse) -> String? {
        let type = response.headers["content-type"]
        let json = try? JSONParser.parse(response.body)
        if response.status >= 500 { return "from a store that never fails" }
        guard let id = response.requestID, !id.isEmpty else { return "without a request id" }
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
