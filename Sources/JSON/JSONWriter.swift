import ASCIIKit

/// Builds compact JSON as bytes, in the order fields are written, so responses come out
/// byte-for-byte the same for the same values (which is what makes ETags stable). Writes into a
/// `ByteBuffer`, a `memcpy` per piece, and no intermediate strings; `bytes` copies the result
/// out once. Noncopyable, like the buffer it owns.
public struct JSONWriter: ~Copyable {
    private var buffer: ByteBuffer

    public init(capacity: Int = 512) { buffer = ByteBuffer(capacity: capacity) }

    /// The JSON written so far, copied out.
    public var bytes: [UInt8] { buffer.bytes }

    /// The JSON written so far without its first and last byte: an object's members without
    /// their braces.
    public var innerBytes: [UInt8] {
        buffer.withUnsafeBytes { $0.count < 2 ? [] : Array($0[1 ..< $0.count - 1]) }
    }

    public mutating func beginObject() { separate(); buffer.append(UInt8(ascii: "{")) }
    public mutating func endObject() { buffer.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); buffer.append(UInt8(ascii: "[")) }
    public mutating func endArray() { buffer.append(UInt8(ascii: "]")) }

    /// Writes a member name (plain ASCII, never escaped); the next value written is its value.
    public mutating func key(_ name: StaticString) {
        let comma = takesComma ? 1 : 0
        name.withRawBytes { name in
            // `,"name":` in one piece: a dozen members per answer, and four appends cost four
            // capacity checks each.
            buffer.append(count: comma &+ name.count &+ 3) { start in
                // Safe: `start` has room for exactly the comma, the quotes, the name and the colon.
                if comma == 1 { start.storeBytes(of: UInt8(ascii: ","), as: UInt8.self) }
                start.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma, as: UInt8.self)
                if let base = name.baseAddress { ByteBuffer.copy(name.count, from: base, to: start + comma + 1) }
                start.storeBytes(of: UInt8(ascii: "\""), toByteOffset: comma &+ 1 &+ name.count, as: UInt8.self)
                start.storeBytes(of: UInt8(ascii: ":"), toByteOffset: comma &+ 2 &+ name.count, as: UInt8.self)
            }
        }
    }

    /// Writes a value another writer rendered (an object, say) as the next value.
    public mutating func value(_ rendered: [UInt8]) { separate(); buffer.append(rendered) }

    /// Writes a value given as JSON text in a literal (`"\"star\""`, `1`), copied as it is.
    public mutating func value(_ literal: StaticString) { separate(); buffer.append(literal) }

    /// Writes members another writer rendered (`"a":1,"b":2`, no braces) into the open object.
    public mutating func members(_ rendered: [UInt8]) { separate(); buffer.append(rendered) }

    public mutating func string(_ value: String) { separate(); JSONText.appendQuoted(value, to: &buffer) }
    /// Writes a string given as UTF-8 bytes, escaped as `string(_:)` escapes. Safe: the bytes are
    /// only read, during the call.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) { separate(); JSONText.appendQuoted(utf8: utf8, to: &buffer) }
    /// Writes a number already in JSON form (`3.5`, `4`).
    public mutating func number(_ literal: String) { separate(); buffer.append(literal) }
    public mutating func integer(_ value: Int) { separate(); buffer.appendDecimal(value) }
    public mutating func bool(_ value: Bool) { separate(); buffer.append(value ? "true" as StaticString : "false") }
    public mutating func null() { separate(); buffer.append("null" as StaticString) }

    @inline(__always)
    private mutating func separate() {
        if takesComma { buffer.append(UInt8(ascii: ",")) }
    }

    /// Whether the next element needs a comma before it: whether the last byte written ended an
    /// element, so anything but nothing, `{`, `[` or a member's `:`. Read from the bytes rather
    /// than counted per nesting level, which cost a shift and a bit set for every element.
    @inline(__always)
    private var takesComma: Bool {
        guard let last = buffer.last else { return false }
        return last != UInt8(ascii: "{") && last != UInt8(ascii: "[") && last != UInt8(ascii: ":")
    }
}
