import HTTP1

/// Builders for successful responses.
enum Responses {
    /// A JSON response without an ETag (writes).
    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/json")]), body: body)
    }

    /// A JSON representation for GET and HEAD: a strong ETag from the exact bytes, so it
    /// changes whenever the body would (RFC 9110 §8.8.3).
    static func representation(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: HTTPHeaders([("content-type", "application/json"), ("etag", etag(body))]), body: body)
    }

    static func text(_ status: Int, _ body: String, contentType: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", contentType)]), body: Array(body.utf8))
    }

    /// `"` + FNV-1a 64 of the body in hex + `"`.
    static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }
}
