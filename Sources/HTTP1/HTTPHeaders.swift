import ASCIIKit

/// One header field as text: what iterating an `HTTPHeaders` yields, for code that wants strings
/// (tests, the 304's field filter). The list itself keeps bytes.
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: String

    /// A field named `name`, which must already be lowercase, as every stored name is.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Header fields in arrival order. Names are kept lowercased, since field names are
/// case-insensitive (RFC 9110 §5.1): fields added are lowercased, and lookups take names already
/// in lowercase, as literals (`StaticString`, whose bytes are at hand without a copy or a
/// check), so a lookup compares bytes and nothing more.
/// Stored as byte records (`FieldRecords`): the parser and the serializer move bytes, and text is
/// made only for a value somebody reads.
// Safe: `records` is written only while this list holds the only reference to it (`append` copies
// it first otherwise), so records that another list or thread can reach are only ever read.
public struct HTTPHeaders: @unchecked Sendable, Equatable, Sequence {
    private var records: FieldRecords

    public init(_ fields: [(String, String)] = []) {
        records = .empty
        for (name, value) in fields {
            name.withUTF8Bytes { name in
                value.withUTF8Bytes { value in append(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value), lowercasing: true) }
            }
        }
    }

    /// No fields yet, with room for about `capacity` of them, so a response's fields (and the ones
    /// the middleware adds on the way out) fill one buffer instead of growing it field by field.
    public init(capacity: Int) {
        records = capacity > 0 ? .make(capacity: capacity * Self.typicalFieldSize) : .empty
    }

    /// Bytes a typical field takes as a record: its lengths, a name and a value of some 20 bytes.
    private static let typicalFieldSize = FieldRecords.lengthsSize + 40

    // MARK: Adding

    /// Appends a field (its name lowercased, as lookups expect).
    public mutating func add(_ name: StaticString, _ value: String) {
        name.withRawBytes { name in
            value.withUTF8Bytes { value in append(name: name, value: UnsafeRawBufferPointer(value), lowercasing: true) }
        }
    }

    /// Appends a field from request bytes; the name is lowercased as it is copied. The parser has
    /// checked both: a token, and a value without CR, LF or NUL.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        append(name: name, value: value, lowercasing: true)
    }

    /// Replaces every field named `name` (lowercase) with one holding `value`.
    public mutating func set(_ name: StaticString, _ value: String) {
        if contains(name) {
            var kept = HTTPHeaders()
            kept.records = .make(capacity: records.used + name.utf8CodeUnitCount + value.utf8.count + FieldRecords.lengthsSize)
            records.withBytes { bytes in
                FieldRecords.forEach(in: bytes) { fieldName, fieldValue in
                    if !fieldName.hasSameBytes(as: name) { kept.append(name: fieldName, value: fieldValue, lowercasing: false) }
                    return true
                }
            }
            self = kept
        }
        add(name, value)
    }

    private mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lowercasing: Bool) {
        let size = FieldRecords.lengthsSize + name.count + value.count
        let used = records.used, capacity = records.room
        if !isKnownUniquelyReferenced(&records) || used + size > capacity {
            records = records.copy(capacity: Swift.max(used + size, capacity * 2, 4 * Self.typicalFieldSize))
        }
        records.append(name: name, value: value, lowercasing: lowercasing)
    }

    // MARK: Reading

    /// The first value of `name` (lowercase), or nil.
    public subscript(_ name: StaticString) -> String? {
        var found: String?
        forEachValue(of: name) { value in
            found = String(decoding: value, as: UTF8.self)
            return false
        }
        return found
    }

    /// Whether the first value of `name` (lowercase) is exactly `literal`, compared as bytes,
    /// without making text of it.
    public func firstValue(of name: StaticString, is literal: StaticString) -> Bool {
        var matches = false
        forEachValue(of: name) { value in
            matches = value.hasSameBytes(as: literal)
            return false
        }
        return matches
    }

    /// Every value of `name` (lowercase), in order.
    public func values(_ name: StaticString) -> [String] {
        var values: [String] = []
        forEachValue(of: name) { value in
            values.append(String(decoding: value, as: UTF8.self))
            return true
        }
        return values
    }

    /// Whether a field is named `name` (lowercase).
    public func contains(_ name: StaticString) -> Bool {
        var found = false
        forEachValue(of: name) { _ in
            found = true
            return false
        }
        return found
    }

    /// Whether a comma-separated field such as `connection` (lowercase) lists `token`
    /// (lowercase; compared case-insensitively).
    public func contains(token: StaticString, in name: StaticString) -> Bool {
        var found = false
        token.withRawBytes { token in
            forEachValue(of: name) { value in
                var start = 0
                for end in 0...value.count where end == value.count || value[end] == UInt8(ascii: ",") {
                    if Self.isElement(UnsafeRawBufferPointer(rebasing: value[start..<end]), equalTo: token) {
                        found = true
                        return false
                    }
                    start = end + 1
                }
                return true
            }
        }
        return found
    }

    /// Calls `body` with each field's name and value bytes, in order; the bytes are valid only
    /// during the call. How the serializer writes a list without making text of it.
    public func forEachField(_ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Void) {
        records.withBytes { bytes in
            FieldRecords.forEach(in: bytes) { name, value in
                body(name, value)
                return true
            }
        }
    }

    /// Calls `body` with the value bytes of each field named `name` (lowercase) until it returns false.
    @inline(__always)
    func forEachValue(of name: StaticString, _ body: (UnsafeRawBufferPointer) -> Bool) {
        records.withBytes { bytes in
            FieldRecords.forEach(in: bytes) { fieldName, value in
                fieldName.hasSameBytes(as: name) ? body(value) : true
            }
        }
    }

    /// The fields as text, in order.
    public var fields: [HTTPField] {
        var fields: [HTTPField] = []
        forEachField { name, value in
            fields.append(HTTPField(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        }
        return fields
    }

    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.records === rhs.records || lhs.records.withBytes { left in rhs.records.withBytes { right in left.elementsEqual(right) } }
    }

    // MARK: Bytes

    /// Whether a list element, with the spaces and tabs around it, is `token` (lowercase) in any case.
    private static func isElement(_ element: UnsafeRawBufferPointer, equalTo token: UnsafeRawBufferPointer) -> Bool {
        var start = 0, end = element.count
        while start < end, ASCII.isSpaceOrTab(element[start]) { start += 1 }
        while end > start, ASCII.isSpaceOrTab(element[end - 1]) { end -= 1 }
        guard end - start == token.count else { return false }
        for index in 0..<token.count where ASCII.lowercased(element[start + index]) != token[index] { return false }
        return true
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are exactly `literal`'s (a field name). Lengths first: most names
    /// asked for differ in length from most names present, and are not read at all.
    @inline(__always)
    func hasSameBytes(as literal: StaticString) -> Bool {
        literal.withRawBytes { literal in
            guard count == literal.count else { return false }
            for index in 0..<count where self[index] != literal[index] { return false }
            return true
        }
    }
}
