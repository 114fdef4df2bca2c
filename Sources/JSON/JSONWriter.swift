/// Builds compact JSON as bytes, in the order fields are written, so responses come out
/// byte-for-byte the same for the same values (which is what makes ETags stable). Writes
/// straight into the response body: no intermediate strings.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether the next element needs a comma first.
    private var needsComma: [Bool] = [false]

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Writes a member name (plain ASCII, never escaped); the next value written is its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma[needsComma.count - 1] = false
    }

    /// Writes members another writer rendered (`"a":1,"b":2`, no braces) into the open object.
    public mutating func members(_ rendered: [UInt8]) { separate(); bytes.append(contentsOf: rendered) }

    public mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &bytes) }
    /// Writes a number already in JSON form (`3.5`, `4`).
    public mutating func number(_ literal: String) { separate(); append(literal) }
    public mutating func integer(_ value: Int) { separate(); append(String(value)) }
    public mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false") }
    public mutating func null() { separate(); append("null") }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }
}
