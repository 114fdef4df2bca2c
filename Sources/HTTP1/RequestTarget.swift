import ASCIIKit

/// An origin-form request target split into decoded path segments and query parameters.
public struct RequestTarget: Sendable, Equatable {
    /// The path as sent, before decoding (for logs and metrics fallbacks).
    public let rawPath: String
    /// The raw query, without `?`; nil when absent.
    public let rawQuery: String?
    /// Query parameters as raw (still encoded) name/value pairs, in order. Split once here,
    /// because a request may read several parameters (its language, then the endpoint's own).
    public let rawQueryItems: [(name: String, value: String)]

    public init(_ target: String) {
        let bytes = target.utf8
        if let mark = ASCII.firstIndex(of: UInt8(ascii: "?"), in: target[...].utf8) {
            rawPath = String(target[..<mark])
            let query = String(target[bytes.index(after: mark)...])
            rawQuery = query
            rawQueryItems = Self.items(of: query)
        } else {
            rawPath = target
            rawQuery = nil
            rawQueryItems = []
        }
    }

    /// Every raw value of the parameter `name`, in order (none when it is absent).
    public func rawQueryValues(_ name: String) -> [String] {
        var values: [String] = []
        for item in rawQueryItems where item.name == name { values.append(item.value) }
        return values
    }

    public static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
        lhs.rawPath == rhs.rawPath && lhs.rawQuery == rhs.rawQuery
    }

    /// The path's segments, each percent-decoded; nil when a segment does not decode to UTF-8.
    /// The leading `/` yields no segment, so `/v1/items/a` is `["v1", "items", "a"]`.
    public var pathSegments: [String]? {
        var path = rawPath
        return path.withUTF8 { bytes -> [String]? in
            guard bytes.first == UInt8(ascii: "/") else { return [] }
            // Cut from the bytes: "/" and "%" are ASCII, and the text was valid UTF-8.
            var segments: [String] = []
            segments.reserveCapacity(6)
            var decodes = true
            ASCII.forEachSlice(of: UnsafeBufferPointer(rebasing: bytes[1...]), separatedBy: UInt8(ascii: "/")) { segment in
                guard decodes else { return }
                if let decoded = PercentDecoding.decode(segment) { segments.append(decoded) } else { decodes = false }
            }
            return decodes ? segments : nil
        }
    }

    private static func items(of query: String) -> [(name: String, value: String)] {
        // Split as bytes, each piece made a String once: "&" and "=" are ASCII, and splitting
        // Characters or Substrings (every slice checks its bounds against Unicode) costs several
        // times more on every request that has a query.
        var query = query
        return query.withUTF8 { bytes in
            var items: [(name: String, value: String)] = []
            ASCII.forEachSlice(of: bytes, separatedBy: UInt8(ascii: "&")) { pair in
                guard !pair.isEmpty else { return }
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                items.append((text(pair[..<equals]), equals < pair.endIndex ? text(pair[(equals + 1)...]) : ""))
            }
            return items
        }
    }

    /// The bytes of a query piece as text; the query was valid UTF-8 and the cuts fall on ASCII.
    private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }
}

/// Percent-decoding (RFC 3986 §2.1) that refuses malformed escapes and invalid UTF-8.
public enum PercentDecoding {
    /// The decoded text, or nil when an escape is malformed or the bytes are not UTF-8.
    /// `+` is left as is: it means a space only in HTML forms, not in URLs.
    public static func decode(_ text: String) -> String? {
        hasEscape(text[...]) ? decodeEscapes(text.utf8) : text
    }

    /// `decode` of a part of a string.
    public static func decode(_ text: Substring) -> String? {
        hasEscape(text) ? decodeEscapes(text.utf8) : String(text)
    }

    /// `decode` of the UTF-8 bytes of a text (a path segment cut from its request target).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.contains(UInt8(ascii: "%")) ? decodeEscapes(bytes) : String(decoding: bytes, as: UTF8.self)
    }

    private static func hasEscape(_ text: Substring) -> Bool {
        ASCII.firstIndex(of: UInt8(ascii: "%"), in: text.utf8) != nil
    }

    private static func decodeEscapes(_ text: some Collection<UInt8>) -> String? {
        var input = text.makeIterator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        while let byte = input.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = input.next().flatMap(ASCII.hexValue),
                  let low = input.next().flatMap(ASCII.hexValue) else { return nil }
            bytes.append(UInt8(high * 16 + low))
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
