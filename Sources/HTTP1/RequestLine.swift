import ASCIIKit

/// `method SP request-target SP HTTP-version` (RFC 9112 §3), with single spaces only. The target
/// is origin form (`/path?query`), `*`, or absolute form (`http://host:port/path`, RFC 9112
/// §3.2.2), which a server must accept: it is returned as its origin form and its authority.
enum RequestLine {
    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (method: String, target: String, version: HTTPVersion, authority: String?) {
        guard let firstSpace = line.firstIndex(of: ByteClass.space),
              let lastSpace = line.lastIndex(of: ByteClass.space), lastSpace > firstSpace + 1
        else { throw .malformedRequestLine }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<lastSpace]
        let version = line[(lastSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(ByteClass.isToken) else { throw .invalidMethod }
        let targetBytes = UnsafeRawBufferPointer(rebasing: target)
        guard ByteClass.allVisibleASCII(targetBytes) else {
            throw target.contains(ByteClass.space) ? .malformedRequestLine : .invalidTarget
        }
        // ASCII, so made without `String(decoding:)`'s UTF-8 check.
        let text = ASCII.text(targetBytes.assumingMemoryBound(to: UInt8.self))
        // Told apart by the first byte, not by `String.hasPrefix`, which compares as Unicode.
        let isOriginForm = target.first == UInt8(ascii: "/") || (target.count == 1 && target.first == UInt8(ascii: "*"))
        let (originForm, authority) = try isOriginForm ? (text, nil) : absoluteForm(text)
        return (methodText(UnsafeRawBufferPointer(rebasing: method)), originForm, try parseVersion(version), authority)
    }

    /// The method as text: the ones the API answers as literals, the rest decoded.
    private static func methodText(_ method: UnsafeRawBufferPointer) -> String {
        if method.hasSameBytes(as: "GET") { return "GET" }
        if method.hasSameBytes(as: "PUT") { return "PUT" }
        if method.hasSameBytes(as: "HEAD") { return "HEAD" }
        if method.hasSameBytes(as: "DELETE") { return "DELETE" }
        return String(decoding: method, as: UTF8.self)
    }

    /// The origin form of an absolute-form target, and its authority.
    private static func absoluteForm(_ target: String) throws(HTTPParseError) -> (String, String?) {
        let lower = target.lowercasedASCII()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else { throw .invalidTarget }
        let rest = target.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { throw .invalidTarget }
        let path = rest.dropFirst(authority.count)
        guard !path.hasPrefix("#") else { throw .invalidTarget }
        return (path.hasPrefix("/") ? String(path) : "/" + path, String(authority))
    }

    /// `HTTP/` DIGIT `.` DIGIT; 1.0 and 1.1 are served, any other well-formed version is 505.
    private static func parseVersion(_ bytes: Slice<UnsafeRawBufferPointer>) throws(HTTPParseError) -> HTTPVersion {
        // Compared as bytes: this runs for every request, and the common answers need no text.
        let start = bytes.startIndex
        guard bytes.count == 8, bytes[start] == UInt8(ascii: "H"), bytes[start + 1] == UInt8(ascii: "T"),
              bytes[start + 2] == UInt8(ascii: "T"), bytes[start + 3] == UInt8(ascii: "P"), bytes[start + 4] == UInt8(ascii: "/"),
              bytes[start + 6] == UInt8(ascii: "."), ASCII.isDigit(bytes[start + 5]), ASCII.isDigit(bytes[start + 7])
        else { throw .malformedRequestLine }
        switch (bytes[start + 5], bytes[start + 7]) {
        case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .http11
        case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .http10
        default: throw .unsupportedVersion(String(decoding: bytes, as: UTF8.self))
        }
    }
}
