import JSON
import ASCIIKit
import HTTP1
import RatingsCore

/// Builders for successful responses.
enum Responses {
    /// A JSON response without an ETag or a language (health, readiness).
    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", "application/json")]), body: body)
    }

    /// JSON without an ETag or a language, written by `write`.
    static func json(_ status: Int, _ write: (inout JSONWriter) -> Void) -> HTTPResponse {
        var writer = JSONWriter()
        write(&writer)
        return json(status, writer.bytes)
    }

    /// A write's answer: JSON in `language`, rendered by `write`, without an ETag.
    static func json(_ status: Int, in language: WireLanguage, _ write: (WireFormat, inout JSONWriter) -> Void) -> HTTPResponse {
        HTTPResponse(status: status, headers: language.jsonFields, body: render(language, write))
    }

    /// The fields of `json(_:in:_:)`'s answers in `language`, which `WireLanguage` keeps.
    static func jsonFields(in language: Language) -> HTTPHeaders {
        var headers = HTTPHeaders(capacity: 3)
        headers.add("content-type", "application/json")
        negotiated(language, into: &headers)
        return headers
    }

    /// A JSON representation for GET and HEAD in `language`: a strong ETag from the exact bytes
    /// and the language, so it changes whenever the body or its language would (RFC 9110 §8.8.3).
    static func representation(in language: WireLanguage, _ write: (WireFormat, inout JSONWriter) -> Void) -> HTTPResponse {
        let body = render(language, write)
        return representation(in: language, body: body, etag: etag(body, language.language.tag))
    }

    /// A JSON representation for GET and HEAD that holds no display, so speaks no language: a
    /// strong ETag from the exact bytes.
    static func representation(_ write: (inout JSONWriter) -> Void) -> HTTPResponse {
        var json = JSONWriter()
        write(&json)
        let headers = HTTPHeaders([("content-type", "application/json"), ("etag", etag(json.bytes, ""))])
        return HTTPResponse(status: 200, headers: headers, body: json.bytes)
    }

    /// A representation whose body and ETag were rendered before (see `SummaryRenderings`).
    static func representation(in language: WireLanguage, body: [UInt8], etag: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: representationHeaders(in: language, etag: etag), body: body)
    }

    /// The fields of a JSON representation in `language` whose ETag is `etag`.
    static func representationHeaders(in language: WireLanguage, etag: String) -> HTTPHeaders {
        var headers = HTTPHeaders(capacity: 6) // these four, X-Request-ID and a spare
        headers.add("content-type", "application/json")
        headers.add("etag", etag)
        negotiated(language.language, into: &headers)
        return headers
    }

    private static func render(_ language: WireLanguage, _ write: (WireFormat, inout JSONWriter) -> Void) -> [UInt8] {
        let wire = WireFormat(language: language)
        // Room for a rating with its item's summary (about 700 bytes in English) without growing.
        var json = JSONWriter(capacity: 1_024)
        write(wire, &json)
        return json.bytes
    }

    /// Names the language, and tells caches that `Accept-Language` chose it (RFC 9110 §12.5.5).
    private static func negotiated(_ language: Language, into headers: inout HTTPHeaders) {
        headers.add("content-language", language.contentTag)
        headers.add("vary", "Accept-Language")
    }

    static func text(_ status: Int, _ body: String, contentType: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("content-type", contentType)]), body: Array(body.utf8))
    }

    /// `"` + the hash of the body and the language tag (`etagHash`), in hex + `"`.
    static func etag(_ bytes: [UInt8], _ language: String) -> String { ASCII.hex(etagHash(bytes, language), quoted: true) }

    /// The hash a body's ETag quotes: the body's `ContentHash` (eight bytes a step, where
    /// FNV-1a takes one: a page of reviews is tens of kilobytes), then a zero byte and the language
    /// tag folded in with FNV-1a.
    static func etagHash(_ bytes: [UInt8], _ language: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(ContentHash.hash(bytes))
        closeETagHash(&hash, language)
        return hash.value
    }

    /// Ends the hash of an ETag's body with a zero byte and the language tag, so that the same
    /// bytes in two languages carry two ETags.
    private static func closeETagHash(_ hash: inout FNV1a, _ language: String) {
        hash.add(byte: 0)
        hash.add(language.utf8)
    }

    /// The strong ETag of a body made of parts, built up part by part in their order from the
    /// hashes their own ETags quote (`etagHash`): it changes whenever one of theirs would,
    /// without hashing the body's bytes again.
    struct CombinedETag {
        private var hash = FNV1a()

        init() { hash.add(byte: UInt8(ascii: "[")) }

        /// The next part, by its `etagHash`.
        mutating func add(_ partHash: UInt64) { hash.add(partHash) }

        /// The ETag of the body in `language`.
        func finish(_ language: String) -> String {
            var hash = hash
            Responses.closeETagHash(&hash, language)
            return hash.quotedHex
        }
    }
}
