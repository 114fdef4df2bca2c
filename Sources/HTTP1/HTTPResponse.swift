/// A response to serialize. The server adds `Date`, `Content-Length` and `Connection`.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether this status never carries content (RFC 9110 §6.4.1).
    public var forbidsBody: Bool { status == 204 || status == 304 || (100..<200).contains(status) }
}
