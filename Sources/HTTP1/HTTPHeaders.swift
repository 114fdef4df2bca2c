import ASCIIKit

/// One header field: its name, lowercased, and its value. A struct rather than a tuple: an array
/// of tuples is destroyed through the runtime's generic tuple walk, field by field, on every
/// request and response.
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: String

    /// Whether this field is named `name` (lowercase). Lengths first: they are known without
    /// reading the text, and most names asked for differ in length from most names present,
    /// where a plain `==` of two different strings calls into the runtime's comparison.
    @inline(__always)
    public func isNamed(_ name: String) -> Bool { self.name.utf8.count == name.utf8.count && self.name == name }
}

/// Header fields in arrival order. Names are kept lowercased, since field names are
/// case-insensitive (RFC 9110 §5.1): fields added are lowercased, and lookups take names already
/// in lowercase (every caller passes a literal), so a lookup compares bytes and nothing more.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields, names lowercased, values with surrounding whitespace removed.
    public private(set) var fields: [HTTPField]

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { HTTPField(name: HTTPHeaders.lowercase($0.0), value: $0.1) }
    }

    /// No fields yet, with room for `capacity` of them, so a response's fields (and the ones the
    /// middleware adds on the way out) fill one buffer instead of growing it field by field.
    public init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(HTTPField(name: HTTPHeaders.lowercase(name), value: value))
    }

    /// Appends a field whose name the caller has already lowercased (the parser, which lowercases
    /// as it copies the name out of the request bytes).
    mutating func add(lowercasedName name: String, _ value: String) {
        fields.append(HTTPField(name: name, value: value))
    }

    /// Replaces every field named `name` (lowercase) with one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        if fields.contains(where: { $0.isNamed(name) }) { fields.removeAll { $0.isNamed(name) } }
        fields.append(HTTPField(name: name, value: value))
    }

    /// The first value of `name` (lowercase), or nil.
    public subscript(_ name: String) -> String? {
        for field in fields where field.isNamed(name) { return field.value }
        return nil
    }

    /// Every value of `name` (lowercase), in order.
    public func values(_ name: String) -> [String] {
        var values: [String] = []
        for field in fields where field.isNamed(name) { values.append(field.value) }
        return values
    }

    /// Names are nearly always written lowercase already; only copy when they are not.
    @inline(__always)
    private static func lowercase(_ name: String) -> String { name.lowercasedASCII() }

    /// How many fields are named `name` (lowercase), without building an array.
    public func count(_ name: String) -> Int {
        var count = 0
        for field in fields where field.isNamed(name) { count += 1 }
        return count
    }

    /// Whether a comma-separated field such as `connection` (lowercase) lists `token`
    /// (lowercase; compared case-insensitively).
    public func contains(token: String, in name: String) -> Bool {
        for field in fields where field.isNamed(name) {
            if field.value.split(separator: ",").contains(where: { $0.trimmingSpacesAndTabs().lowercasedASCII() == token }) { return true }
        }
        return false
    }

    public func makeIterator() -> IndexingIterator<[HTTPField]> { fields.makeIterator() }
}
