import ASCIIKit

/// An origin-form request target split into decoded path segments and query parameters.
public struct RequestTarget: Sendable {
    /// The path as sent, before decoding (for logs and metrics fallbacks).
    public let rawPath: String
    /// Query parameters as raw (still encoded) name/value pairs, in order. Split once here,
    /// because a request may read several parameters (its language, then the endpoint's own).
    public let rawQueryItems: [(name: String, value: String)]

    public init(_ target: String) {
        // Cut from the bytes once: `?` is ASCII and the target is valid UTF-8. Cutting through
        // String indices (a Substring per part, each converted back) cost several times more
        // on every request that has a query.
        var target = target
        let parts = target.withUTF8 { bytes -> (path: String, items: [(name: String, value: String)])? in
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
            return (Self.text(bytes[..<mark]), Self.items(of: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...])))
        }
        (rawPath, rawQueryItems) = parts ?? (target, [])
    }

    /// The first raw value of the parameter `name` and how many times it is given: what reading a
    /// parameter allowed once takes, without building an array of its values.
    public func rawQueryValue(_ name: String) -> (first: String?, count: Int) {
        var first: String?
        var count = 0
        for item in rawQueryItems where item.name == name {
            if count == 0 { first = item.value }
            count += 1
        }
        return (first, count)
    }

    /// Every raw value of the parameter `name`, in order (none when it is absent).
    public func rawQueryValues(_ name: String) -> [String] {
        var values: [String] = []
        for item in rawQueryItems where item.name == name { values.append(item.value) }
        return values
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

    private static func items(of query: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        // Split as bytes, each piece made a String once: "&" and "=" are ASCII.
        var items: [(name: String, value: String)] = []
        // One allocation instead of regrowing from empty for the second and fourth pair.
        items.reserveCapacity(1 + ASCII.occurrences(of: UInt8(ascii: "&"), in: query))
        ASCII.forEachSlice(of: query, separatedBy: UInt8(ascii: "&")) { pair in
            guard !pair.isEmpty else { return }
            let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
            items.append((text(pair[..<equals]), equals < pair.endIndex ? text(pair[(equals + 1)...]) : ""))
        }
        return items
    }

    /// A piece of the target as text; the target was valid UTF-8 and the cuts fall on ASCII.
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
