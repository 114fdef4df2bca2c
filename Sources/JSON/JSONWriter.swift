import ASCIIKit

/// Builds compact JSON as bytes, in the order fields are written, so responses come out
/// byte-for-byte the same for the same values (which is what makes ETags stable). Writes
/// straight into the response body: no intermediate strings.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// Per nesting level (bit n for level n, 0 outside everything): whether the next element
    /// needs a comma first. A bit set rather than an array, so writing allocates nothing more.
    private var needsComma: UInt64 = 0
    private var depth = 0

    public init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); open() }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); depth -= 1 }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); open() }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); depth -= 1 }

    /// Writes a member name (plain ASCII, never escaped); the next value written is its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        ASCII.appendLiteral(name, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma &= ~(1 << UInt64(depth))
    }

    /// Writes a value another writer rendered (an object, say) as the next value.
    public mutating func value(_ rendered: [UInt8]) { separate(); bytes.append(contentsOf: rendered) }

    /// Writes a value given as JSON text in a literal (`"\"star\""`, `1`), copied as it is.
    public mutating func value(_ literal: StaticString) { separate(); ASCII.appendLiteral(literal, to: &bytes) }

    /// Writes members another writer rendered (`"a":1,"b":2`, no braces) into the open object.
    public mutating func members(_ rendered: [UInt8]) { separate(); bytes.append(contentsOf: rendered) }

    public mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &bytes) }
    /// Writes a number already in JSON form (`3.5`, `4`).
    public mutating func number(_ literal: String) { separate(); append(literal) }
    public mutating func integer(_ value: Int) { separate(); ASCII.appendDecimal(value, to: &bytes) }
    public mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false") }
    public mutating func null() { separate(); ASCII.appendLiteral("null", to: &bytes) }

    private mutating func append(_ text: String) { ASCII.append(text, to: &bytes) }

    private mutating func separate() {
        let bit: UInt64 = 1 << UInt64(depth)
        if needsComma & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        needsComma |= bit
    }

    /// Enters a new object or array (at most 63 levels deep, far beyond anything written here).
    private mutating func open() {
        depth += 1
        needsComma &= ~(1 << UInt64(depth))
    }
}
