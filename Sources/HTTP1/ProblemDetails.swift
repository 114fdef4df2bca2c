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

/// JSON string escaping (RFC 8259 §7), shared by everything that writes JSON by hand.
public enum JSONText {
    /// `text` as a quoted JSON string.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
