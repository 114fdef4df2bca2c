import ASCIIKit

/// An origin-form request target split into its path, read segment by segment, and its query
/// parameters.
public struct RequestTarget: Sendable {
    /// The path as sent, before decoding (for logs and metrics fallbacks).
    public let rawPath: String
    /// Query parameters as raw (still encoded) name/value pairs, in order. Split once here,
    /// because a request may read several parameters (its language, then the endpoint's own).
    public let rawQueryItems: [(name: String, value: String)]
    /// How many segments the path has (see `pathMatches`).
    public let pathSegmentCount: Int
    /// Whether the path has a `%`, so some segment may need decoding before it is compared.
    private let pathHasEscape: Bool

    public init(_ target: String) {
        // Read from the bytes in one pass, which finds the `?`, counts the path's segments and
        // notes any escape: `?`, `/` and `%` are ASCII and the target is valid UTF-8. Cutting
        // through String indices (a Substring per part, each converted back) cost several times
        // more on every request that has a query. The bytes are borrowed, not copied out.
        let (count, escape, parts) = target.withUTF8Bytes { bytes -> (Int, Bool, (path: String, items: [(name: String, value: String)])?) in
            var slashes = 0, escape = false
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "/"): slashes += 1
                case UInt8(ascii: "%"): escape = true
                case UInt8(ascii: "?"):
                    let query = UnsafeBufferPointer(rebasing: bytes[(index + 1)...])
                    return (slashes, escape, (Self.text(bytes[..<index]), Self.items(of: query)))
                default: break
                }
            }
            return (slashes, escape, nil)
        }
        (rawPath, rawQueryItems) = parts ?? (target, [])
        // Each `/` starts a segment when the path starts with one; else it has none (`*`).
        pathSegmentCount = rawPath.utf8.first == UInt8(ascii: "/") ? count : 0
        pathHasEscape = escape
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

    // The path's segments are read from its bytes, as sent: the leading `/` yields no segment,
    // so `/v1/items/a` has `v1`, `items` and `a`, and a path without one (`*`) has none. Routing
    // compares them there, and only a parameter's segment is ever made text.

    /// Whether the path has a segment for each entry of `template`, and no more, and each
    /// segment whose entry is not nil decodes to exactly those UTF-8 bytes: a route's literals,
    /// its parameters nil.
    public func pathMatches(_ template: [[UInt8]?]) -> Bool {
        guard template.count == pathSegmentCount else { return false }
        let mayEscape = pathHasEscape // the closure captures this alone: capturing self copied the target
        return withPathSegments { segments in
            for entry in template {
                guard let segment = segments.next() else { return false }
                if let literal = entry, !Self.segment(segment, decodesTo: literal, mayEscape: mayEscape) { return false }
            }
            return true
        }
    }

    /// Whether every segment's percent-escapes are well formed and decode to UTF-8.
    public var pathDecodes: Bool {
        guard pathHasEscape else { return true }
        return withPathSegments { segments in segments.allSatisfy { PercentDecoding.decode($0) != nil } }
    }

    /// The path segment at `position` (0 is the first), percent-decoded; nil when the path has
    /// no such segment or it does not decode to UTF-8.
    public func pathSegment(at position: Int) -> String? {
        guard (0..<pathSegmentCount).contains(position) else { return nil }
        return withPathSegments { segments in
            for _ in 0..<position { _ = segments.next() }
            return segments.next().flatMap(PercentDecoding.decode)
        }
    }

    /// Calls `body` with the path's segments; only for a path that has some.
    private func withPathSegments<Result>(_ body: (inout ByteSlices) -> Result) -> Result {
        // Borrowed in place, never copied.
        rawPath.withUTF8Bytes { bytes in
            var segments = ByteSlices(UnsafeBufferPointer(rebasing: bytes.dropFirst()), separatedBy: UInt8(ascii: "/"))
            return body(&segments)
        }
    }

    /// Whether `segment` decodes to exactly `literal`: compared byte for byte, unless it has an
    /// escape to decode first.
    private static func segment(_ segment: UnsafeBufferPointer<UInt8>, decodesTo literal: [UInt8], mayEscape: Bool) -> Bool {
        if mayEscape && segment.contains(UInt8(ascii: "%")) {
            return PercentDecoding.decode(segment).map { Array($0.utf8) == literal } ?? false
        }
        guard segment.count == literal.count else { return false }
        for index in 0..<segment.count where segment[index] != literal[index] { return false }
        return true
    }

    private static func items(of query: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        // Split as bytes, each piece made a String once: "&" and "=" are ASCII.
        var items: [(name: String, value: String)] = []
        // Sized once for every pair.
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
        ASCII.text(UnsafeBufferPointer(rebasing: bytes))
    }
}

/// Percent-decoding (RFC 3986 §2.1) that refuses malformed escapes and invalid UTF-8.
public enum PercentDecoding {
    /// The decoded text, or nil when an escape is malformed or the bytes are not UTF-8.
    /// `+` is left as is: it means a space only in HTML forms, not in URLs.
    public static func decode(_ text: String) -> String? {
        // Looked for in the borrowed bytes, not through a Substring.
        text.withUTF8Bytes { $0.contains(UInt8(ascii: "%")) } ? decodeEscapes(text.utf8) : text
    }

    /// `decode` of the UTF-8 bytes of a text (a path segment cut from its request target).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.contains(UInt8(ascii: "%")) ? decodeEscapes(bytes) : ASCII.text(bytes)
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
