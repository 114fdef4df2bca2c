import ASCIIKit

/// Decides how a request's body is delimited (RFC 9112 §6.3), refusing every ambiguity that
/// request smuggling relies on.
enum MessageFraming {
    /// The reader for the body, or nil when the request has none.
    static func bodyReader(for head: HTTPRequestHead, limits: HTTPLimits) throws(HTTPParseError) -> BodyReader? {
        // Most requests carry neither field; answer them without building any array.
        let encoding = head.headers["transfer-encoding"], declaredLength = head.headers["content-length"]
        if encoding == nil && declaredLength == nil { return nil }
        // The usual body: one Content-Length of plain digits, read without splitting anything.
        if encoding == nil, let declaredLength, ASCII.isDecimal(declaredLength), head.headers.count("content-length") == 1 {
            guard let length = ASCII.integer(declaredLength, in: 0...limits.maxBodyBytes) else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
            return length == 0 ? nil : .length(remaining: length, body: [])
        }
        let encodings = head.headers.values("transfer-encoding")
        let lengths = head.headers.values("content-length")
        if !encodings.isEmpty {
            if !lengths.isEmpty { throw .contentLengthWithTransferEncoding }
            if head.version == .http10 { throw .transferEncodingInHTTP10 }
            let codings = encodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
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
        guard !lengths.isEmpty else { return nil }
        // Repeated or listed values are allowed only when they all agree (RFC 9110 §8.6).
        let values = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpacesAndTabs() }
        guard let first = values.first, values.allSatisfy({ $0 == first }), ASCII.isDecimal(first)
        else { throw .invalidContentLength }
        guard let length = ASCII.integer(first, in: 0...limits.maxBodyBytes) else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return length == 0 ? nil : .length(remaining: length, body: [])
    }
}
