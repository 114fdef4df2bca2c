/// What the API itself refuses, beyond the rating rules of `RatingError`.
enum APIError: Error, Sendable, Equatable {
    /// No route has this path.
    case notFound(path: String)
    /// The route exists but not for this method; `allow` lists the route's methods.
    case methodNotAllowed(method: String, allow: String)
    /// A body without a JSON content type.
    case unsupportedMediaType(given: String?)
    /// A declared JSON body that does not parse.
    case malformedJSON(String)
    /// Valid JSON of the wrong shape or value; the detail says what is expected.
    case invalidBody(String)
    /// A bad query string; the detail names the parameter.
    case invalidQuery(String)
    /// A store that does not answer.
    case notReady
}
