/// The HTTP version of a request; only HTTP/1.0 and HTTP/1.1 are served.
public enum HTTPVersion: String, Sendable, Equatable {
    case http10 = "HTTP/1.0"
    case http11 = "HTTP/1.1"
}

/// A request line and its header fields.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token, case-sensitive (RFC 9110 §9.1).
    public var method: String
    /// The request target as sent: origin form `/path?query`, or `*`.
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    public init(method: String, target: String, version: HTTPVersion = .http11, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Whether the client lets the connection stay open after this exchange (RFC 9112 §9.3).
    public var keepAlive: Bool {
        if headers.contains(token: "close", in: "connection") { return false }
        return version == .http11 || headers.contains(token: "keep-alive", in: "connection")
    }

    /// Whether the client waits for `100 Continue` before sending its body (RFC 9110 §10.1.1).
    public var expectsContinue: Bool {
        version == .http11 && headers["expect"]?.lowercased() == "100-continue"
    }
}

/// A complete request: head and decoded body.
public struct HTTPRequest: Sendable, Equatable {
    public var head: HTTPRequestHead
    /// The body after any chunked decoding; empty when there is none.
    public var body: [UInt8]

    public init(head: HTTPRequestHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    public var method: String { head.method }
    public var target: String { head.target }
    public var headers: HTTPHeaders { head.headers }
}
