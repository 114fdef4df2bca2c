import JSON

/// An `application/problem+json` body (RFC 9457): the one shape every error response takes.
public struct ProblemDetails: Sendable, Equatable {
    public var status: Int
    /// A URI naming the kind of problem.
    public var type: String
    /// A short, fixed summary of the kind of problem.
    public var title: String
    /// What the caller should change.
    public var detail: String

    public init(status: Int, type: String? = nil, title: String? = nil, detail: String) {
        self.status = status
        self.type = type ?? "about:blank"
        self.title = title ?? HTTPStatus.reason(status)
        self.detail = detail
    }

    /// The JSON body.
    public var json: String {
        "{\"type\":\(JSONText.quoted(type)),\"title\":\(JSONText.quoted(title)),\"status\":\(status),\"detail\":\(JSONText.quoted(detail))}"
    }

    /// A complete response carrying this problem.
    public var response: HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/problem+json")]), body: Array(json.utf8))
    }
}
