import ASCIIKit

/// Header field lines, `field-name ":" OWS field-value OWS` (RFC 9112 §5), ending in an empty line.
enum FieldSection {
    /// Parses `bytes`, which hold the field lines each ending in CRLF, then the final CRLF.
    static func parse(_ bytes: UnsafeRawBufferPointer, limits: HTTPLimits) throws(HTTPParseError) -> HTTPHeaders {
        var headers = HTTPHeaders(capacity: 8) // room for a typical client's fields at once
        var lineStart = 0
        var count = 0
        while lineStart < bytes.count {
            guard let lf = bytes[lineStart...].firstIndex(of: ByteClass.lf) else { throw .malformedRequestLine }
            let lineEnd = lf - 1 // the CR
            if lineEnd == lineStart { break }
            let (name, value) = try parseLine(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            count += 1
            if count > limits.maxHeaderCount { throw .tooManyHeaders }
            headers.add(lowercasedName: name, value)
            lineStart = lf + 1
        }
        return headers
    }

    /// Parses one field line without its CRLF.
    static func parseLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (String, String) {
        guard let first = line.first else { throw .invalidFieldName }
        if first == ByteClass.space || first == ByteClass.tab { throw .obsoleteLineFolding }
        guard let colon = line.firstIndex(of: ByteClass.colon), colon > 0 else { throw .invalidFieldName }
        let name = line[..<colon]
        if let last = name.last, last == ByteClass.space || last == ByteClass.tab { throw .whitespaceBeforeColon }
        guard name.allSatisfy(ByteClass.isToken) else { throw .invalidFieldName }
        var valueStart = colon + 1, valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == ByteClass.space || line[valueStart] == ByteClass.tab { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == ByteClass.space || line[valueEnd - 1] == ByteClass.tab { valueEnd -= 1 }
        let value = line[valueStart..<valueEnd]
        // Lowercased as it is copied out of the request, so it needs no second pass.
        let nameText = ASCII.lowercasedText(name)
        guard value.allSatisfy(ByteClass.isFieldValue) else { throw .invalidFieldValue(name: nameText) }
        return (nameText, String(decoding: value, as: UTF8.self))
    }
}

/// RFC 9112 §3.2: an HTTP/1.1 request carries exactly one Host, and it must be a valid authority.
enum HostRule {
    /// Bytes a host never holds: userinfo, spaces, paths, non-ASCII and the like, as a lookup table.
    private static let forbidden: [Bool] = (0..<256).map { byte in byte >= 0x80 || " /?#@\\\t,\"<>{}|^`".utf8.contains(UInt8(byte)) }

    static func check(_ head: HTTPRequestHead) throws(HTTPParseError) {
        // One pass over the fields, for the count and the value at once.
        var host: String?
        for index in head.headers.fields.indices where head.headers.fields[index].isNamed("host") {
            if host != nil { throw .repeatedHost }
            host = head.headers.fields[index].value
        }
        guard let host else {
            if head.version == .http11 { throw .missingHost }
            return
        }
        // reg-name / IP-literal, optional port, checked over the bytes in place.
        guard host.withUTF8Bytes({ !$0.contains(where: isForbidden) }) else { throw .invalidHost }
    }

    private static func isForbidden(_ byte: UInt8) -> Bool { forbidden[Int(byte)] }
}
