import ASCIIKit

/// Header fields in arrival order. Names are kept lowercased, since field names are
/// case-insensitive (RFC 9110 §5.1), so lookups compare bytes.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields, names lowercased, values with surrounding whitespace removed.
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: HTTPHeaders.lowercase($0.0), value: $0.1) }
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: HTTPHeaders.lowercase(name), value: value))
    }

    /// Replaces every field named `name` with one holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        let name = HTTPHeaders.lowercase(name)
        fields.removeAll { $0.name == name }
        fields.append((name: name, value: value))
    }

    /// The first value of `name`, or nil.
    public subscript(_ name: String) -> String? {
        let name = HTTPHeaders.lowercase(name)
        return fields.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        let name = HTTPHeaders.lowercase(name)
        return fields.filter { $0.name == name }.map(\.value)
    }

    /// Names are nearly always written lowercase already; only copy when they are not.
    @inline(__always)
    private static func lowercase(_ name: String) -> String { name.lowercasedASCII() }

    /// How many fields are named `name`, without building an array.
    public func count(_ name: String) -> Int {
        let name = HTTPHeaders.lowercase(name)
        var count = 0
        for field in fields where field.name == name { count += 1 }
        return count
    }

    /// Whether a comma-separated field such as `Connection` lists `token` (case-insensitive).
    public func contains(token: String, in name: String) -> Bool {
        let name = HTTPHeaders.lowercase(name)
        for field in fields where field.name == name {
            if field.value.split(separator: ",").contains(where: { $0.trimmingSpacesAndTabs().lowercased() == token }) { return true }
        }
        return false
    }

    public func makeIterator() -> some IteratorProtocol<(name: String, value: String)> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
