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

    /// What an object body holds under a name that should be an integer: the integer, or which
    /// of three mistakes it is (each its own problem type, so a client can branch on it).
    enum IntegerMember {
        case integer(Int)
        /// The body is not an object; what it is instead.
        case notAnObject(String)
        /// The member is missing (nil) or holds another JSON type than a number (what it holds).
        case mistyped(String?)
        /// The member is a number but not a whole one a 64-bit integer holds, as written.
        case outOfRange(String)
    }

    /// The integer member `name` of an object body, or which mistake the body makes.
    static func integerMember(_ name: String, of body: JSONValue) -> IntegerMember {
        guard case .object = body else { return .notAnObject(body.kindDescription) }
        guard let value = body[name] else { return .mistyped(nil) }
        guard case .number = value else { return .mistyped(value.kindDescription) }
        guard case .value(let integer)? = value.integer else { return .outOfRange(value.kindDescription) }
        return .integer(integer)
    }

    /// The string member `name` of an object body; nil when it is absent or null. 422 when the
    /// body is not an object (`shape` shows what it should look like) or the member is not a string.
    static func stringMember(_ name: String, of body: JSONValue, shape: String) throws(APIError) -> String? {
        guard case .object = body else { throw .bodyNotAnObject("The body must be a JSON object like \(shape); got \(body.kindDescription).") }
        switch body[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw .invalidMember("\(name) must be a JSON string (or null where it is optional); got \(other.kindDescription).")
        }
    }

    /// The boolean member `name` of an object body; 422 when the body is not an object or the
    /// member is missing or not `true` or `false`.
    static func booleanMember(_ name: String, of body: JSONValue, shape: String) throws(APIError) -> Bool {
        guard case .object = body else { throw .bodyNotAnObject("The body must be a JSON object like \(shape); got \(body.kindDescription).") }
        switch body[name] {
        case .bool(let value)?: return value
        case nil: throw .invalidMember("The body has no \"\(name)\" member; give \(name) as true or false.")
        case let other?: throw .invalidMember("\(name) must be true or false; got \(other.kindDescription).")
        }
    }

    /// The error for a member that is not an integer: `range` says what it must be ("an
    /// integer from 1 to 5 (this item's maxRating)"); `outOfRange` makes the error of a number
    /// outside it.
    static func failure(_ name: String, _ problem: IntegerMember, must range: String, outOfRange: (String) -> any Error) -> any Error {
        switch problem {
        case .integer(let value): return outOfRange("\(value)")
        case .notAnObject(let kind):
            return APIError.bodyNotAnObject("The body must be a JSON object like {\"\(name)\": …}, where \(name) is \(range); got \(kind).")
        case .mistyped(nil): return APIError.invalidMember("The body has no \"\(name)\" member; give \(name) as \(range).")
        case .mistyped(let kind?): return APIError.invalidMember("\(name) must be \(range), a JSON number; got \(kind).")
        case .outOfRange(let given): return outOfRange(given)
        }
    }
}
