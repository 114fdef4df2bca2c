/// A response to serialize. The server adds `Date`, `Content-Length` and `Connection`.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// One field written after `headers`, for a value that differs per answer (the API's request
    /// id). Kept apart so a response rendered once and shared (a cached representation) is
    /// answered without copying its fields: adding to shared fields copies them all.
    public var lastField: HTTPField?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether this status never carries content (RFC 9110 §6.4.1).
    public var forbidsBody: Bool { status == 204 || status == 304 || (100..<200).contains(status) }
}

extension HTTPResponse {
    /// Fields a 304 repeats from the 200 it stands for, so a cache can update what it stored
    /// (RFC 9110 §15.4.5).
    private static let keptByNotModified: Set<String> = ["etag", "vary", "cache-control", "expires", "content-location"]

    /// The `304 Not Modified` that answers a matching `If-None-Match` in place of this response,
    /// with the same `lastField`.
    public var notModified: HTTPResponse {
        var response = HTTPResponse(status: 304, headers: HTTPHeaders(headers.filter { Self.keptByNotModified.contains($0.name) }.map { ($0.name, $0.value) }))
        response.lastField = lastField
        return response
    }
}
