import ASCIIKit

/// `method SP request-target SP HTTP-version` (RFC 9112 §3), with single spaces only.
enum RequestLine {
    static func parse(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (String, String, HTTPVersion) {
        guard let firstSpace = line.firstIndex(of: ByteClass.space),
              let lastSpace = line.lastIndex(of: ByteClass.space), lastSpace > firstSpace + 1
        else { throw .malformedRequestLine }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<lastSpace]
        let version = line[(lastSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(ByteClass.isToken) else { throw .invalidMethod }
        guard target.allSatisfy(ByteClass.isVisibleASCII) else {
            throw target.contains(ByteClass.space) ? .malformedRequestLine : .invalidTarget
        }
        guard target.first == UInt8(ascii: "/") || (target.count == 1 && target.first == UInt8(ascii: "*")) else {
            throw .invalidTarget
        }
        return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), try parseVersion(version))
    }

    /// `HTTP/` DIGIT `.` DIGIT; 1.0 and 1.1 are served, any other well-formed version is 505.
    private static func parseVersion(_ bytes: Slice<UnsafeRawBufferPointer>) throws(HTTPParseError) -> HTTPVersion {
        let text = String(decoding: bytes, as: UTF8.self)
        let utf8 = Array(bytes)
        guard utf8.count == 8, text.hasPrefix("HTTP/"), utf8[6] == UInt8(ascii: "."),
              ASCII.isDigit(utf8[5]), ASCII.isDigit(utf8[7])
        else { throw .malformedRequestLine }
        switch text {
        case "HTTP/1.1": return .http11
        case "HTTP/1.0": return .http10
        default: throw .unsupportedVersion(text)
        }
    }
}
