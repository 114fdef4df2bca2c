import ASCIIKit
import JSON

/// One subscriber of change events, as the webhooks file names it.
public struct WebhookEndpoint: Sendable, Hashable {
    /// Names the endpoint in the outbox, the admin route, metrics and logs: 1 to 64 characters
    /// from `A-Z a-z 0-9 . _ -`.
    public let id: String
    /// `http://` or `https://`; may hold credentials, which `displayURL` leaves out.
    public let url: String
    /// The secret's decoded bytes (24 to 64): the HMAC key. Never logged or shown.
    public let secret: [UInt8]
    public let patterns: [EventPattern]
    /// The types the patterns match, worked out once.
    public let types: EventTypes

    public init(id: String, url: String, secret: [UInt8], patterns: [EventPattern]) {
        self.id = id
        self.url = url
        self.secret = secret
        self.patterns = patterns
        types = EventTypes(matching: patterns)
    }

    public func wants(_ type: EventType) -> Bool { types.contains(type) }

    /// The URL without any `user:password@` it carries, for the admin route and logs.
    public var displayURL: String {
        guard let parts = Self.split(url) else { return url }
        return parts.scheme + parts.host + parts.rest
    }

    /// `http://` or `https://`, the authority's host (after any credentials, with its port), and
    /// what follows; nil for any other scheme.
    static func split(_ url: String) -> (scheme: String, host: Substring, rest: Substring)? {
        guard let scheme = ["https://", "http://"].first(where: { url.hasPrefix($0) }) else { return nil }
        let afterScheme = url.dropFirst(scheme.count)
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return (scheme, host, afterScheme[authorityEnd...])
    }
}

/// The webhooks file: `{"endpoints": [{"id", "url", "secret": "whsec_<base64>", "events": [...]}]}`.
public enum WebhookConfiguration {
    /// Secret lengths in bytes, once decoded.
    public static let secretLengths = 24...64

    /// The endpoints the file's `bytes` name; the error says what to change, and never holds a secret.
    public static func endpoints(from bytes: [UInt8]) throws(WebhookConfigurationError) -> [WebhookEndpoint] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw WebhookConfigurationError("it is not JSON (\(error))")
        }
        guard case .array(let list)? = document["endpoints"] else {
            throw WebhookConfigurationError("it must be an object with an \"endpoints\" array")
        }
        var endpoints: [WebhookEndpoint] = []
        for (index, entry) in list.enumerated() {
            let endpoint = try self.endpoint(entry, at: index)
            guard !endpoints.contains(where: { $0.id == endpoint.id }) else {
                throw WebhookConfigurationError("endpoints[\(index)]: the id \"\(endpoint.id)\" is used twice")
            }
            endpoints.append(endpoint)
        }
        return endpoints
    }

    private static func endpoint(_ entry: JSONValue, at index: Int) throws(WebhookConfigurationError) -> WebhookEndpoint {
        let place = "endpoints[\(index)]"
        guard case .string(let id)? = entry["id"], (1...64).contains(id.utf8.count),
              id.utf8.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else {
            throw WebhookConfigurationError("\(place): id must be 1 to 64 characters from A-Z a-z 0-9 . _ -")
        }
        guard case .string(let url)? = entry["url"], url.utf8.count <= 2_048, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let parts = WebhookEndpoint.split(url), !parts.host.isEmpty
        else {
            throw WebhookConfigurationError("\(place) (\(id)): url must be an http:// or https:// URL with a host, without spaces")
        }
        guard case .string(let secretText)? = entry["secret"], secretText.hasPrefix("whsec_"),
              let secret = Base64.decode(secretText.dropFirst(6)), secretLengths.contains(secret.count)
        else {
            throw WebhookConfigurationError("\(place) (\(id)): secret must be whsec_ and the base64 of \(secretLengths.lowerBound) to \(secretLengths.upperBound) random bytes")
        }
        guard case .array(let list)? = entry["events"], !list.isEmpty else {
            throw WebhookConfigurationError("\(place) (\(id)): events must be a non-empty array of event types or patterns")
        }
        var patterns: [EventPattern] = []
        for value in list {
            guard case .string(let text) = value, let pattern = EventPattern(text) else {
                throw WebhookConfigurationError("\(place) (\(id)): events holds \(value.kindDescription) that is no event type or pattern; give types such as review.published, families such as rating.*, or *")
            }
            patterns.append(pattern)
        }
        return WebhookEndpoint(id: id, url: url, secret: secret, patterns: patterns)
    }
}

/// Why a webhooks file cannot be used.
public struct WebhookConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
