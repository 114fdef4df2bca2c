import ASCIIKit

/// Decides how a request's body is delimited (RFC 9112 §6.3), refusing every ambiguity that
/// request smuggling relies on.
enum MessageFraming {
    /// The reader for the body, or nil when the request has none.
    static func bodyReader(for head: HTTPRequestHead, limits: HTTPLimits) throws(HTTPParseError) -> BodyReader? {
        if head.headers.contains("transfer-encoding") {
            if head.headers.contains("content-length") { throw .contentLengthWithTransferEncoding }
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
        // Most requests carry neither field, and are answered without building any array; the
        // usual single value of plain digits is read from its bytes, without text made of it.
        var fields = 0, plain = false, plainLength: Int?
        head.headers.forEachValue(of: "content-length") { value in
            fields += 1
            if fields == 1, ASCII.isDecimal(value) {
                plain = true
                plainLength = ASCII.integer(value, in: 0...limits.maxBodyBytes)
            }
            return true
        }
        if fields == 0 { return nil }
        let length = fields == 1 && plain ? plainLength : ASCII.integer(try agreedLength(head), in: 0...limits.maxBodyBytes)
        guard let length else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return length == 0 ? nil : .length(remaining: length, body: [])
    }

    /// The one Content-Length the request declares when it has several fields or a listed value:
    /// allowed only when they all agree (RFC 9110 §8.6).
    private static func agreedLength(_ head: HTTPRequestHead) throws(HTTPParseError) -> String {
        let values = head.headers.values("content-length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs() }
        guard let agreed = values.first, values.allSatisfy({ $0 == agreed }), ASCII.isDecimal(agreed) else { throw .invalidContentLength }
        return agreed
    }
}
