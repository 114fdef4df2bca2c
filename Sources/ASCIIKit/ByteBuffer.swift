/// A growable run of bytes for output assembled from many small pieces: response heads and
/// access-log lines, a dozen pieces each on every request. Appending is a capacity check and a
/// copy, inlined at the caller, never `Array.append(contentsOf:)`'s generic path.
/// Noncopyable, so its storage has exactly one owner and needs no reference count.
public struct ByteBuffer: ~Copyable {
    // Safe: owned by this value alone (it cannot be copied), `storedCapacity` bytes long, the
    // first `storedCount` initialized; freed in `deinit`.
    @usableFromInline var storage: UnsafeMutableRawPointer?
    @usableFromInline var storedCount = 0
    @usableFromInline var storedCapacity = 0

    /// How many bytes the buffer holds.
    public var count: Int { storedCount }
    /// How many bytes it can hold before it grows.
    public var capacity: Int { storedCapacity }

    public init(capacity: Int = 0) {
        if capacity > 0 { grow(to: capacity) }
    }

    deinit { storage?.deallocate() }

    public var isEmpty: Bool { count == 0 }

    /// The last byte held, or nil when empty.
    @inlinable @inline(__always)
    public var last: UInt8? {
        // Safe: when storedCount > 0, the storage holds at least that many initialized bytes.
        storedCount > 0 ? storage.unsafelyUnwrapped.load(fromByteOffset: storedCount &- 1, as: UInt8.self) : nil
    }

    /// Calls `body` with the bytes held. Inlinable: other modules called it as an unspecialized
    /// generic, once for every answer sent.
    @inlinable
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage, count: count))
    }

    /// A copy of the bytes held, as an array.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// Empties the buffer; keeps its storage unless that is larger than `maxKeptCapacity`.
    public mutating func removeAll(keepingCapacityUpTo maxKeptCapacity: Int) {
        storedCount = 0
        if storedCapacity > maxKeptCapacity {
            storage?.deallocate()
            storage = nil
            storedCapacity = 0
        }
    }

    /// Drops the first `count` bytes (all of them when `count` exceeds what is held), moving the
    /// rest to the front; the capacity stays.
    public mutating func removeFirst(_ count: Int) {
        let dropped = min(max(count, 0), storedCount)
        guard dropped > 0, let storage else { return }
        // Safe: both ranges lie inside the `storedCount` initialized bytes, and a move
        // between overlapping regions is allowed (it is a memmove).
        storage.moveInitializeMemory(as: UInt8.self, from: (storage + dropped).assumingMemoryBound(to: UInt8.self),
                                     count: storedCount - dropped)
        storedCount -= dropped
    }

    // MARK: Appending

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        Self.copy(bytes.count, from: source, to: reserve(bytes.count))
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1).storeBytes(of: byte, as: UInt8.self)
    }

    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends the UTF-8 of `text`, straight from its storage.
    @inlinable
    public mutating func append(_ text: String) {
        text.withUTF8Bytes { append(UnsafeRawBufferPointer($0)) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        literal.withRawBytes { append($0) }
    }

    /// Appends `count` bytes that `write` fills in from the address it is given: one capacity
    /// check for a piece made of several parts (a header field's name, value and separators).
    @inlinable @inline(__always)
    public mutating func append(count: Int, _ write: (UnsafeMutableRawPointer) -> Void) {
        write(reserve(count))
    }

    /// Appends `value` in decimal digits (a minus sign first when negative).
    @inlinable
    public mutating func appendDecimal(_ value: Int) {
        let length = ASCII.decimalLength(of: value)
        ASCII.writeDecimal(value, at: reserve(length), length: length)
    }

    /// Makes room for `extra` more bytes, counts them as held, and returns where they start.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutableRawPointer {
        if storedCount + extra > storedCapacity { grow(to: Swift.max(storedCount + extra, storedCapacity * 2, 256)) }
        // Safe: the storage now holds at least storedCount + extra bytes.
        let start = storage.unsafelyUnwrapped + storedCount
        storedCount += extra
        return start
    }

    /// `copyMemory`, with the short pieces most appends are (a field name, a separator, a
    /// status) copied as two overlapping words: the call into libc's `memcpy` and its size
    /// dispatch cost more than such a copy.
    @inlinable @inline(__always)
    public static func copy(_ count: Int, from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        switch count {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            for offset in 0..<count { target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self) }
        default:
            target.copyMemory(from: source, byteCount: count)
        }
    }

    @usableFromInline
    mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        if let storage {
            grown.copyMemory(from: storage, byteCount: storedCount)
            storage.deallocate()
        }
        storage = grown
        storedCapacity = newCapacity
    }
}
