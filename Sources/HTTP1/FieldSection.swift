import ASCIIKit

/// Header field lines, `field-name ":" OWS field-value OWS` (RFC 9112 §5), ending in an empty line.
enum FieldSection {
    /// Parses `bytes`, which hold the field lines each ending in CRLF, then the final CRLF.
    static func parse(_ bytes: UnsafeRawBufferPointer, limits: HTTPLimits) throws(HTTPParseError) -> HTTPHeaders {
        var headers = HTTPHeaders(capacity: 8) // room for a typical client's fields at once
        var lineStart = 0
        var count = 0
        while lineStart < bytes.count {
            guard let lf = ByteClass.index(of: ByteClass.lf, in: bytes, from: lineStart, to: bytes.count) else { throw .malformedRequestLine }
            let lineEnd = lf - 1 // the CR
            if lineEnd == lineStart { break }
            let (name, value) = try parseLine(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
            count += 1
            if count > limits.maxHeaderCount { throw .tooManyHeaders }
            headers.add(name: name, value: value)
            lineStart = lf + 1
        }
        return headers
    }

    /// Checks one field line without its CRLF and returns its name and its value without the
    /// whitespace around it, as parts of `line`.
    static func parseLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard let first = line.first else { throw .invalidFieldName }
        if first == ByteClass.space || first == ByteClass.tab { throw .obsoleteLineFolding }
        guard let colon = line.firstIndex(of: ByteClass.colon), colon > 0 else { throw .invalidFieldName }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        if let last = name.last, last == ByteClass.space || last == ByteClass.tab { throw .whitespaceBeforeColon }
        guard name.allSatisfy(ByteClass.isToken) else { throw .invalidFieldName }
        var valueStart = colon + 1, valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == ByteClass.space || line[valueStart] == ByteClass.tab { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == ByteClass.space || line[valueEnd - 1] == ByteClass.tab { valueEnd -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])
        guard ByteClass.allFieldValue(value) else { throw .invalidFieldValue(name: ASCII.lowercasedText(name)) }
        return (name, value)
    }
}

/// RFC 9112 §3.2: an HTTP/1.1 request carries exactly one Host, and it must be a valid authority.
enum HostRule {
    /// The bytes a host never holds besides non-ASCII: userinfo, spaces, paths and the like.
    static let forbiddenASCII = " /?#@\\\t,\"<>{}|^`"

    static func check(_ head: HTTPRequestHead) throws(HTTPParseError) {
        var hosts = 0
        var valid = true
        head.headers.forEachValue(of: "host") { value in
            hosts += 1
            // reg-name / IP-literal, optional port, checked over the bytes in place.
            valid = valid && !value.contains(where: isForbidden)
            return hosts < 2
        }
        if hosts > 1 { throw .repeatedHost }
        if hosts == 0 {
            if head.version == .http11 { throw .missingHost }
            return
        }
        guard valid else { throw .invalidHost }
    }

    /// Whether `byte` is non-ASCII or one of `forbiddenASCII`: two 64-bit masks over ASCII, as
    /// `ByteClass.isToken` reads them, where a global table's lazy initialization was checked
    /// for every byte of every request's host.
    @inline(__always) static func isForbidden(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0xD000_900D_0000_0200 // TAB SP " # , / < > ?
        let high: UInt64 = 0x3800_0001_5000_0001 // @ \ ^ ` { | }
        return byte < 64 ? low >> byte & 1 != 0 : byte >= 128 || high >> (byte - 64) & 1 != 0
    }
}
