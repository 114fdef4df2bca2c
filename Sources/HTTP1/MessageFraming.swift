import ASCIIKit

/// Decides how a request's body is delimited (RFC 9112 §6.3), refusing every ambiguity that
/// request smuggling relies on.
enum MessageFraming {
    /// The reader for the body, or nil when the request has none.
    static func bodyReader(for head: HTTPRequestHead, limits: HTTPLimits) throws(HTTPParseError) -> BodyReader? {
        let encoding = head.headers["transfer-encoding"], declaredLength = head.headers["content-length"]
        if encoding != nil {
            if declaredLength != nil { throw .contentLengthWithTransferEncoding }
            if head.version == .http10 { throw .transferEncodingInHTTP10 }
            let codings = head.headers.values("transfer-encoding").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingSpacesAndTabs().lowercased() }
            guard codings.last == "chunked" else {
                if let unknown = codings.first(where: { $0 != "chunked" }), !codings.contains("chunked") {
                    throw .unsupportedTransferCoding(unknown)
                }
                throw .chunkedNotFinal
            }
            if codings.dropLast().contains("chunked") { throw .chunkedNotFinal }
            if let other = codings.dropLast().first { throw .unsupportedTransferCoding(other) }
            return .chunked(ChunkedDecoder())
        }
        // Most requests carry neither field, and are answered without building any array.
        guard let declaredLength else { return nil }
        let agreed = try agreedLength(head, first: declaredLength)
        guard let length = ASCII.integer(agreed, in: 0...limits.maxBodyBytes) else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return length == 0 ? nil : .length(remaining: length, body: [])
    }

    /// The one Content-Length the request declares, given its first field's value. Repeated or
    /// listed values are allowed only when they all agree (RFC 9110 §8.6); the usual single value
    /// of plain digits is taken as it is, without splitting anything.
    private static func agreedLength(_ head: HTTPRequestHead, first: String) throws(HTTPParseError) -> String {
        if ASCII.isDecimal(first), head.headers.count("content-length") == 1 { return first }
        let values = head.headers.values("content-length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs() }
        guard let agreed = values.first, values.allSatisfy({ $0 == agreed }), ASCII.isDecimal(agreed) else { throw .invalidContentLength }
        return agreed
    }
}
