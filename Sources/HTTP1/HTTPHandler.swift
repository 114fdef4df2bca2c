/// The one thing the server knows of the application: a request goes in, exactly one response
/// comes out through `respond`, on any thread, now or later. The server adds `Date`,
/// `Content-Length`, `Connection` and `X-Request-ID`, answers `If-None-Match` with 304 when the
/// response carries a matching `ETag`, and drops the body for HEAD.
public struct HTTPHandler: Sendable {
    /// The request's `x-request-id` header is already set (echoed or generated) when this runs.
    public let handle: @Sendable (_ request: HTTPRequest, _ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void

    public init(_ handle: @escaping @Sendable (_ request: HTTPRequest, _ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void) {
        self.handle = handle
    }
}
