import HTTP1

/// Builds compact JSON as bytes, in the order fields are written, so responses come out
/// byte-for-byte the same for the same values (which is what makes ETags stable). Writes
/// straight into the response body: no intermediate strings.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Per open object or array: whether the next element needs a comma first.
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 512) { bytes.reserveCapacity(capacity) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma.removeLast() }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma.removeLast() }

    /// Writes a member name (plain ASCII, never escaped); the next value written is its value.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma[needsComma.count - 1] = false
    }

    /// Writes members another writer rendered (`"a":1,"b":2`, no braces) into the open object.
    mutating func members(_ rendered: [UInt8]) { separate(); bytes.append(contentsOf: rendered) }

    mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &bytes) }
    /// Writes a number already in JSON form (`3.5`, `4`).
    mutating func number(_ literal: String) { separate(); append(literal) }
    mutating func integer(_ value: Int) { separate(); append(String(value)) }
    mutating func bool(_ value: Bool) { separate(); append(value ? "true" : "false") }
    mutating func null() { separate(); append("null") }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }
}
