import ASCIIKit

/// A strict RFC 8259 parser for request bodies: UTF-8 only, one value, bounded nesting, no
/// duplicate member names (which would make `stars` ambiguous), bounded members per object. Its
/// work is linear in the input: duplicates are found through a hash set once an object outgrows
/// a few members (Swift's hashing is seeded per process, so colliding names cannot be prepared).
public struct JSONParser {
    /// Deepest nesting accepted; deeper input is refused rather than recursed into.
    public static let maxDepth = 64
    /// Most members one object may have; more are refused. No body the service reads has more
    /// than a few, and a JWK Set holds its keys in an array.
    public static let maxMembers = 1_024
    /// Objects up to this many members look for a duplicate name by comparing it with each
    /// earlier one, which costs less than hashing for the few members a body has.
    static let membersComparedDirectly = 8

    /// Why a body is not JSON, with the byte offset.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public let offset: Int
        public var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private var index = 0

    /// Parses `bytes` as exactly one JSON value.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
        guard depth < JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth) levels") }
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"): return .number(try parseNumber())
        case _ where ASCII.isDigit(byte): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expect(_ literal: String) throws(SyntaxError) {
        for expected in literal.utf8 {
            guard current == expected else { throw error("invalid literal") }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        /// Every name so far, once there are more than `membersComparedDirectly`.
        var names = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            guard members.count < Self.maxMembers else { throw error("an object with more than \(Self.maxMembers) members") }
            let keyStart = index
            let key = try parseString()
            let duplicate: Bool
            if members.count < Self.membersComparedDirectly {
                duplicate = members.contains { $0.key == key }
            } else {
                if names.isEmpty { names = Set(members.lazy.map(\.key)) }
                duplicate = !names.insert(key).inserted
            }
            if duplicate { throw SyntaxError(message: "duplicate member name \"\(key)\"", offset: keyStart) }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(SyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, ASCII.isDigit(first) else { throw error("invalid number") }
        index += 1
        if first != UInt8(ascii: "0") { while let byte = current, ASCII.isDigit(byte) { index += 1 } }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let byte = current, ASCII.isDigit(byte) else { throw error("invalid number: digits must follow '.'") }
            while let byte = current, ASCII.isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, ASCII.isDigit(byte) else { throw error("invalid number: digits must follow the exponent") }
            while let byte = current, ASCII.isDigit(byte) { index += 1 }
        }
        // ASCII by the checks above, so made without a second UTF-8 check.
        return bytes.withUnsafeBufferPointer { ASCII.text(UnsafeBufferPointer(rebasing: $0[start..<index])) }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var runStart = index
        // Built up only once an escape turns up: a string without one, nearly every string, is
        // validated and made in one step from its bytes.
        var result = ""
        var escaped = false
        // Whether the string so far is ASCII, which is UTF-8 without a check.
        var ascii = true
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                let run = try text(runStart..<index, ascii: ascii)
                index += 1
                guard escaped else { return run }
                result += run
                return result
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte >= 0x80 { ascii = false }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            result += try text(runStart..<index, ascii: ascii)
            escaped = true
            index += 1
            guard let escape = current else { throw error("unterminated escape") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): result += "\""
            case UInt8(ascii: "\\"): result += "\\"
            case UInt8(ascii: "/"): result += "/"
            case UInt8(ascii: "b"): result += "\u{8}"
            case UInt8(ascii: "f"): result += "\u{C}"
            case UInt8(ascii: "n"): result += "\n"
            case UInt8(ascii: "r"): result += "\r"
            case UInt8(ascii: "t"): result += "\t"
            case UInt8(ascii: "u"): result.unicodeScalars.append(try parseUnicodeEscape())
            default: throw error("invalid escape")
            }
            runStart = index
        }
    }

    /// The bytes in `range` as text; an error if they are not UTF-8. `ascii`: they are known to be
    /// ASCII, so need no check.
    private func text(_ range: Range<Int>, ascii: Bool) throws(SyntaxError) -> String {
        if ascii { return bytes.withUnsafeBufferPointer { ASCII.text(UnsafeBufferPointer(rebasing: $0[range])) } }
        let text = bytes.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        guard let text else { throw error("invalid UTF-8 in a string") }
        return text
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated \\u escape") }
            guard let digit = ASCII.hexValue(byte) else { throw error("invalid \\u escape") }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseUnicodeEscape() throws(SyntaxError) -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800...0xDBFF).contains(first) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in a \\u escape")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second),
                  let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw error("unpaired surrogate in a \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate in a \\u escape") }
        return scalar
    }
}
