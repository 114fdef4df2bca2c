import HTTP1

/// Builds compact JSON text by appending, in the order fields are written, so responses come
/// out byte-for-byte the same for the same values (which is what makes ETags stable).
struct JSONWriter {
    private(set) var text = ""
    private var needsComma: [Bool] = [false]

    init(capacity: Int = 512) { text.reserveCapacity(capacity) }

    mutating func beginObject() { separate(); text += "{"; needsComma.append(false) }
    mutating func endObject() { text += "}"; needsComma.removeLast() }
    mutating func beginArray() { separate(); text += "["; needsComma.append(false) }
    mutating func endArray() { text += "]"; needsComma.removeLast() }

    /// Writes a member name; the next value written is its value.
    mutating func key(_ name: String) {
        separate()
        text += JSONText.quoted(name)
        text += ":"
        needsComma[needsComma.count - 1] = false
    }

    mutating func string(_ value: String) { separate(); text += JSONText.quoted(value) }
    /// Writes a number already in JSON form (`3.5`, `4`).
    mutating func number(_ literal: String) { separate(); text += literal }
    mutating func integer(_ value: Int) { separate(); text += String(value) }
    mutating func bool(_ value: Bool) { separate(); text += value ? "true" : "false" }
    mutating func null() { separate(); text += "null" }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }
}
