import JSON
import HTTP1
import RatingsCore

/// The one place where an error becomes a response. Every error is problem+json (RFC 9457);
/// an error of a kind not listed here is a bug: it becomes a plain 500 and the real one is logged.
enum ErrorResponse {
    /// The response for `error`, logging what the client must not see through `log`.
    static func make(_ error: any Error, log: (String) -> Void) -> HTTPResponse {
        switch error {
        case let error as RatingError: return problem(for: error).response
        case let error as ReviewError: return problem(for: error).response
        case let error as APIError: return response(for: error)
        case let error as any StorageFailure:
            log("storage failure: \(error)")
            return ProblemDetails(status: 503, type: type("storage-unavailable"),
                                  detail: "The database is not available right now; retry shortly.").response
        default:
            log("unexpected error: \(String(reflecting: error))")
            return ProblemDetails(status: 500, type: type("internal"), detail: "The server failed unexpectedly; the failure was logged.").response
        }
    }

    static func type(_ slug: String) -> String { "urn:ratings:problem:\(slug)" }

    /// The answer to a request the HTTP layer refused, with this API's problem type for its status
    /// (each status the HTTP layer refuses with has one meaning there) and the layer's detail.
    static func refusal(_ refusal: ProblemDetails) -> HTTPResponse {
        let slug: String
        switch refusal.status {
        case 400: slug = "malformed-request"
        case 408: slug = "request-timeout"
        case 413: slug = "content-too-large"
        case 414: slug = "uri-too-long"
        case 431: slug = "header-fields-too-large"
        case 501: slug = "not-implemented"
        case 503: slug = "too-many-connections"
        case 505: slug = "http-version-not-supported"
        default: slug = "http-\(refusal.status)"
        }
        return ProblemDetails(status: refusal.status, type: type(slug), title: refusal.title, detail: refusal.detail).response
    }

    /// A client-supplied value for an error detail: JSON-quoted and cut to a readable length.
    static func quoted<S: StringProtocol>(_ text: S) -> String {
        let cut = text.count > 140 ? String(text.prefix(140)) + "…" : String(text)
        return JSONText.quoted(cut)
    }

    private static func problem(for error: RatingError) -> ProblemDetails {
        switch error {
        case let .invalidIdentifier(kind, problem):
            return ProblemDetails(status: 400, type: type("invalid-identifier"),
                                  detail: "\(kind.rawValue) \(problem). Identifiers are 1 to \(IdentifierRule.maxLength) characters from \(IdentifierRule.alphabetDescription).")
        case let .starsOutOfRange(given, scale):
            return ProblemDetails(status: 422, type: type("stars-out-of-range"),
                                  detail: "stars must be an integer from 1 to \(scale.maxRating) (this item's maxRating); got \(given).")
        case let .scaleOutOfRange(given):
            return ProblemDetails(status: 422, type: type("scale-out-of-range"),
                                  detail: "maxRating must be an integer from \(Scale.allowed.lowerBound) to \(Scale.allowed.upperBound); got \(given).")
        case let .scaleConflict(current, requested, count):
            return ProblemDetails(status: 409, type: type("scale-conflict"),
                                  detail: "The item has \(count) rating\(count == 1 ? "" : "s") on a \(current.maxRating)-star scale, so its maxRating cannot become \(requested.maxRating); clear its ratings first or keep maxRating \(current.maxRating).")
        case let .ratingNotFound(item, rater):
            return ProblemDetails(status: 404, type: type("rating-not-found"),
                                  detail: "Rater \(rater.rawValue) has no rating on item \(item.rawValue); PUT one first.")
        case let .invalidDisplayValue(given):
            return ProblemDetails(status: 400, type: type("invalid-query"),
                                  detail: "value must be a number written as in JSON, such as 3, 3.25, -1 or 1e3; got \(JSONText.quoted(given)).")
        }
    }

    private static func problem(for error: ReviewError) -> ProblemDetails {
        switch error {
        case let .controlCharacter(field, position, scalar):
            return ProblemDetails(status: 422, type: type("control-character"),
                                  detail: "\(field) holds the control character \(unicodeName(scalar)) at position \(position) (counting Unicode scalar values from 1); remove it. Tab and line breaks are allowed.")
        case let .textTooLong(field, limit, found):
            return ProblemDetails(status: 422, type: type("text-too-long"),
                                  detail: "\(field) holds \(found) characters (Unicode scalar values, after normalization and trimming); the limit is \(limit). Shorten it.")
        case let .textRequired(field):
            return ProblemDetails(status: 422, type: type("text-required"),
                                  detail: "\(field) is required: give it as a JSON string that holds more than white space.")
        case let .invalidLanguageTag(given, problem):
            return ProblemDetails(status: 422, type: type("invalid-language-tag"),
                                  detail: "language \(quoted(given)) is not a BCP 47 tag: \(problem). Write it like en, pt-BR or zh-Hant-TW, or leave it out.")
        case let .reviewNotFound(item, rater):
            return ProblemDetails(status: 404, type: type("review-not-found"),
                                  detail: "Rater \(rater.rawValue) has no review of item \(item.rawValue) that this request can act on: none was written, it was removed, or it is not published (only its author and moderators see it then, and only a published review takes votes, flags and replies).")
        case let .ownReview(rater):
            return ProblemDetails(status: 403, type: type("own-review"),
                                  detail: "Rater \(rater.rawValue) wrote this review; a rater cannot vote on or flag their own review.")
        }
    }

    /// `U+0007` for a scalar value.
    private static func unicodeName(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func response(for error: APIError) -> HTTPResponse {
        switch error {
        case let .notFound(path):
            return ProblemDetails(status: 404, type: type("not-found"),
                                  detail: "No resource at \(path). The paths served are \(RatingsAPI.servedPaths).").response
        case let .methodNotAllowed(method, allow):
            var response = ProblemDetails(status: 405, type: type("method-not-allowed"),
                                          detail: "\(method) is not allowed here; use one of \(allow).").response
            response.headers.set("allow", allow)
            return response
        case let .unsupportedMediaType(given):
            let what = given.map { "Content-Type \($0)" } ?? "a body without Content-Type"
            return ProblemDetails(status: 415, type: type("unsupported-media-type"),
                                  detail: "Send the body as JSON with Content-Type: application/json; got \(what).").response
        case let .malformedJSON(reason):
            return ProblemDetails(status: 400, type: type("malformed-json"), detail: "The body is not valid JSON: \(reason).").response
        case let .bodyNotAnObject(reason):
            return ProblemDetails(status: 422, type: type("body-not-an-object"), detail: reason).response
        case let .invalidMember(reason):
            return ProblemDetails(status: 422, type: type("invalid-member"), detail: reason).response
        case let .invalidQuery(reason):
            return ProblemDetails(status: 400, type: type("invalid-query"), detail: reason).response
        case .notReady:
            return ProblemDetails(status: 503, type: type("not-ready"), detail: "The database does not answer yet; retry shortly.").response
        case let .unauthorized(code, detail):
            var response = ProblemDetails(status: 401, type: type("unauthorized"), detail: detail).response
            response.headers.set("www-authenticate", code.map { "Bearer realm=\"ratings\", error=\"\($0)\"" } ?? "Bearer realm=\"ratings\"")
            return response
        case let .forbidden(detail):
            return ProblemDetails(status: 403, type: type("forbidden"), detail: detail).response
        case let .insufficientScope(scope, operation):
            var response = ProblemDetails(status: 403, type: type("insufficient-scope"),
                                          detail: "\(operation) needs a token with the scope \(scope).").response
            response.headers.set("www-authenticate", "Bearer realm=\"ratings\", error=\"insufficient_scope\", scope=\"\(scope)\"")
            return response
        case let .tooManyRequests(retryAfter):
            var response = ProblemDetails(status: 429, type: type("too-many-requests"),
                                          detail: "This rater is writing too often; retry in \(retryAfter) s.").response
            response.headers.set("retry-after", String(retryAfter))
            return response
        }
    }
}
