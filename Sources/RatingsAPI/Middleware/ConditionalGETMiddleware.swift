import HTTP1

/// Answers a `GET` or `HEAD` whose `If-None-Match` names the response's strong `ETag` with
/// `304 Not Modified` and no body (RFC 9110 §13.1.2, §15.4.5).
final class ConditionalGETMiddleware: OutboundMiddleware {
    func outbound(_ response: consuming HTTPResponse, _ context: RequestContext) -> HTTPResponse {
        let method = context.request.method
        guard method == "GET" || method == "HEAD", (200..<300).contains(response.status),
              let ifNoneMatch = context.request.headers["if-none-match"], let etag = response.headers["etag"],
              EntityTag.matches(ifNoneMatch: ifNoneMatch, etag: etag) else { return response }
        return response.notModified
    }
}
