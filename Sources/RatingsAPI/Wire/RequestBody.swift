import HTTP1
import JSON

/// Reads a request body as JSON, after checking that it was declared as JSON.
enum RequestBody {
    /// The parsed body; 415 when it is not declared JSON, 400 when it does not parse.
    static func json(_ request: HTTPRequest) throws(APIError) -> JSONValue {
        // As nearly every client declares it: read from the bytes, with no text made of them.
        if !request.headers.firstValue(of: "content-type", is: "application/json") {
            let declared = request.headers["content-type"]
            guard let declared, isJSON(declared) else { throw .unsupportedMediaType(given: declared) }
        }
        do {
            return try JSONParser.parse(request.body)
        } catch {
            throw .malformedJSON(request.body.isEmpty ? "the body is empty" : error.description)
        }
    }

    /// `application/json` or any `…/…+json`, parameters such as charset allowed (RFC 6839).
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpacesAndTabs().lowercased() } ?? ""
        if mediaType == "application/json" { return true }
        guard let slash = mediaType.firstIndex(of: "/") else { return false }
        return mediaType[mediaType.index(after: slash)...].hasSuffix("+json") && slash != mediaType.startIndex
    }

    /// What an object body holds under a name that should be an integer.
    enum IntegerMember {
        case integer(Int)
        /// Something else, described for the error detail.
        case other(String)
    }

    /// The integer member `name` of an object body, or a description of what was there instead.
    static func integerMember(_ name: String, of body: JSONValue) -> IntegerMember {
        guard case .object = body else { return .other("\(body.kindDescription) instead of an object like {\"\(name)\": …}") }
        guard let value = body[name] else { return .other("no \"\(name)\" member") }
        guard case .value(let integer)? = value.integer else { return .other(value.kindDescription) }
        return .integer(integer)
    }
}
