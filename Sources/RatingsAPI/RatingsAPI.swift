public import HTTP1
public import RatingsCore

/// The ratings API v1: routes each request to its endpoint, speaks JSON, and turns every error
/// into problem+json in one place. It sees storage only through `RatingStore` and the server
/// only through `HTTPHandler`.
public final class RatingsAPI: Sendable {
    let store: any RatingStore
    let configuration: APIConfiguration
    let metrics = APIMetrics()
    let access: Access
    /// The catalog's languages, in its order, ready for the wire.
    let wireLanguages: [WireLanguage]

    public init(store: any RatingStore, configuration: APIConfiguration) {
        self.store = store
        self.configuration = configuration
        access = Access(verifier: configuration.identityVerifier)
        wireLanguages = configuration.languages.languages.map(WireLanguage.init)
    }

    /// This API as the server's request → response handler.
    public var handler: HTTPHandler {
        HTTPHandler { [self] request, respond in handle(request, respond: respond) }
    }

    /// Answers one request through `respond`, at once for reads, after the commit for writes.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let started = Clock.monotonicSeconds()
        let target = RequestTarget(request.target)
        let route = Route.match(target) ?? .unmatched
        let finish: @Sendable (HTTPResponse) -> Void = { [metrics] response in
            metrics.record(route: route, method: request.method, status: response.status,
                           seconds: Clock.monotonicSeconds() - started)
            respond(response)
        }
        do {
            try dispatch(route, request, target, finish)
        } catch {
            finish(fail(error))
        }
    }

    private func dispatch(_ route: Route, _ request: HTTPRequest, _ target: RequestTarget,
                          _ respond: @escaping @Sendable (HTTPResponse) -> Void) throws {
        if route == .unmatched {
            guard target.pathSegments != nil else {
                throw APIError.invalidQuery("The path has a malformed percent-escape or is not UTF-8; encode each byte as %XX.")
            }
            throw APIError.notFound(path: target.rawPath)
        }
        switch (route, request.method) {
        case let (.rating(item, rater), "GET"), let (.rating(item, rater), "HEAD"):
            respond(try readRating(item: item, rater: access.rater(rater, for: request), language(for: request, target)))
        case (_, "GET"), (_, "HEAD"):
            respond(try read(route, request, target))
        case let (.rating(item, rater), "PUT"):
            try submit(item: item, rater: limited(access.rater(rater, for: request)), request, language(for: request, target), respond)
        case let (.rating(item, rater), "DELETE"):
            try clear(item: item, rater: limited(access.rater(rater, for: request)), language(for: request, target), respond)
        case let (.item(item), "PUT"):
            try access.requireAdmin(request)
            try configure(item: item, request, language(for: request, target), respond)
        default:
            throw APIError.methodNotAllowed(method: request.method, allow: route.allow)
        }
    }

    private func read(_ route: Route, _ request: HTTPRequest, _ target: RequestTarget) throws -> HTTPResponse {
        switch route {
        case .rating: throw APIError.notFound(path: target.rawPath) // answered by dispatch, with access checks
        case let .item(item): return try readSummary(item: item, language(for: request, target))
        case .items: return try readSummaries(target, language(for: request, target))
        case .display: return try display(target, language(for: request, target))
        case .health: return Responses.json(200, Array(#"{"status":"ok"}"#.utf8))
        case .readiness:
            guard store.isReady() else { throw APIError.notReady }
            return Responses.json(200, Array(#"{"status":"ready"}"#.utf8))
        case .metrics:
            return Responses.text(200, metrics.render(openConnections: configuration.openConnections()),
                                  contentType: "text/plain; version=0.0.4; charset=utf-8")
        case .openAPI:
            return Responses.text(200, configuration.openAPIDocument, contentType: "application/yaml")
        case .unmatched:
            throw APIError.notFound(path: "")
        }
    }

    /// Lets a rater's write through the rate limit, or refuses it with 429.
    private func limited(_ rater: RaterID) throws -> RaterID {
        if let limiter = configuration.writeLimiter, let wait = limiter.admit(rater.rawValue, now: Clock.monotonicSeconds()) {
            throw APIError.tooManyRequests(retryAfter: wait)
        }
        return rater
    }

    /// Completes an asynchronous store call: success through `body`, failure through `fail`.
    func complete<T>(_ respond: @escaping @Sendable (HTTPResponse) -> Void,
                     _ body: @escaping @Sendable (T) throws -> HTTPResponse) -> @Sendable (Result<T, any Error>) -> Void {
        { [self] result in
            do {
                respond(try body(result.get()))
            } catch {
                respond(fail(error))
            }
        }
    }

    func fail(_ error: any Error) -> HTTPResponse {
        ErrorResponse.make(error, log: configuration.errorLog)
    }
}

/// The clocks the API reads (monotonic for durations, wall for `updatedAt`).
typealias Clock = SystemClock
