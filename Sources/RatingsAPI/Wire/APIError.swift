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
    /// A JSON body that is not an object (422); the detail says what is expected.
    case bodyNotAnObject(String)
    /// An object body whose member is missing or of the wrong JSON type (422).
    case invalidMember(String)
    /// A bad query string; the detail names the parameter.
    case invalidQuery(String)
    /// A store that does not answer.
    case notReady
    /// No valid bearer token; `code` is the RFC 6750 error code, when one applies.
    case unauthorized(String?, String)
    /// A valid token that may not act on this resource.
    case forbidden(String)
    /// A valid token without the scope the operation needs; `operation` names it ("Configuring items").
    case insufficientScope(String, operation: String)
    /// The rater wrote too often; retry after this many seconds.
    case tooManyRequests(retryAfter: Int)
}
