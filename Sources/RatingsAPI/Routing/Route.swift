import HTTP1

/// Answers one routed request through an API method: it returns the reply (a response now, or a
/// store call and its rendering), or throws an error that becomes its problem response.
typealias Endpoint = @Sendable (RatingsAPI, RequestContext) throws -> Reply

/// One resource of the API, declared once: its path pattern and the endpoint of each method.
/// `HEAD` is answered by the `GET` endpoint (the server drops the body), and `Allow` lists
/// exactly the methods declared here.
struct Route: Sendable {
    let pattern: RoutePattern
    private let endpoints: [MethodEndpoint]

    init(_ pattern: String, _ endpoints: MethodEndpoint...) {
        self.pattern = RoutePattern(pattern)
        self.endpoints = endpoints
    }

    /// The methods this route answers: every declared one, and HEAD beside GET.
    var methods: [String] {
        endpoints.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] }
    }

    /// The `Allow` field of a 405 from this route.
    var allow: String { methods.joined(separator: ", ") }

    /// The endpoint for `method`, or nil when the route does not answer it.
    func endpoint(for method: String) -> Endpoint? {
        let declared = method == "HEAD" ? "GET" : method
        for candidate in endpoints where candidate.method == declared { return candidate.endpoint }
        return nil
    }
}

/// One method of a route and its endpoint. A struct built straight from the closure, not a
/// tuple or a dictionary entry, because a function kept in a generic container is stored in its
/// most general form and needs reabstraction thunks at every call.
struct MethodEndpoint: Sendable {
    let method: String
    let endpoint: Endpoint

    static func get(_ endpoint: @escaping Endpoint) -> MethodEndpoint { MethodEndpoint(method: "GET", endpoint: endpoint) }
    static func put(_ endpoint: @escaping Endpoint) -> MethodEndpoint { MethodEndpoint(method: "PUT", endpoint: endpoint) }
    static func delete(_ endpoint: @escaping Endpoint) -> MethodEndpoint { MethodEndpoint(method: "DELETE", endpoint: endpoint) }
}

/// Finds the route of a path: each route's pattern tried in turn against the decoded segments.
struct Router: Sendable {
    let routes: [Route]

    /// The index in `routes` (for metrics kept in arrays) of the route whose pattern matches
    /// `path`; nil when none does.
    func match(_ target: RequestTarget) -> Int? {
        // Each route read in place, never copied out to a predicate.
        for index in routes.indices where routes[index].pattern.matches(target) { return index }
        return nil
    }
}
