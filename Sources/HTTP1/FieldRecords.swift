import ASCIIKit

/// The bytes behind an `HTTPHeaders`, in one allocation: each field is a record of its name's and
/// its value's lengths (four bytes each), then the name, lowercased, then the value. A request's
/// fields are copied in from its bytes and a response's out to the wire without a `String` made
/// for either, and freeing a list is one `free` rather than a string pair per field.
///
/// Shared between copies of a list; the list copies it before changing it unless it holds the
/// only reference (`HTTPHeaders.append`). Not `Sendable` (a `ManagedBuffer` cannot be); the list
/// that owns it says why sharing it is safe.
final class FieldRecords: ManagedBuffer<FieldRecords.Extent, UInt8> {
    /// How many bytes the records fill, and how many the buffer has room for.
    struct Extent {
        var used: Int
        var capacity: Int
    }

    /// The bytes of a record's two lengths.
    static let lengthsSize = 8

    /// The buffer every empty list starts with, so an empty list allocates nothing.
    // Safe: never written; this reference keeps it from ever being uniquely referenced by a list,
    // so a list copies it before its first write.
    nonisolated(unsafe) static let empty = make(capacity: 0)

    /// A buffer with room for `capacity` bytes of records.
    static func make(capacity: Int) -> FieldRecords {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in Extent(used: 0, capacity: capacity) }, to: FieldRecords.self)
    }

    /// How many bytes the records fill.
    @inline(__always)
    var used: Int { withUnsafeMutablePointerToHeader { $0.pointee.used } }

    /// How many bytes the buffer has room for.
    @inline(__always)
    var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

    // The extent is always reached through these pointers, never through `header`, a class's
    // stored property that would be checked for exclusive access at run time on every use.

    /// A copy of these records in a buffer of `capacity` bytes (at least `used`).
    func copy(capacity: Int) -> FieldRecords {
        let copy = FieldRecords.make(capacity: capacity)
        withUnsafeMutablePointers { extent, source in
            let used = extent.pointee.used
            copy.withUnsafeMutablePointers { copyExtent, target in
                target.update(from: source, count: used)
                copyExtent.pointee.used = used
            }
        }
        return copy
    }

    /// Calls `body` with the records' bytes.
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { extent, elements in try body(UnsafeRawBufferPointer(start: elements, count: extent.pointee.used)) }
    }

    /// Appends one record after the caller made room for it (`HTTPHeaders.append`), lowercasing
    /// the name as it is copied when `lowercasing`.
    func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lowercasing: Bool) {
        withUnsafeMutablePointers { extent, elements in
            let start = extent.pointee.used
            extent.pointee.used += Self.lengthsSize + name.count + value.count
            // Safe: the caller made room for lengthsSize + name.count + value.count bytes from `start`.
            let record = UnsafeMutableRawPointer(elements + start)
            record.storeBytes(of: UInt32(name.count), toByteOffset: 0, as: UInt32.self)
            record.storeBytes(of: UInt32(value.count), toByteOffset: 4, as: UInt32.self)
            let nameStart = record + Self.lengthsSize
            if lowercasing {
                for index in 0..<name.count { nameStart.storeBytes(of: ASCII.lowercased(name[index]), toByteOffset: index, as: UInt8.self) }
            } else if let base = name.baseAddress {
                ByteBuffer.copy(name.count, from: base, to: nameStart)
            }
            if let base = value.baseAddress { ByteBuffer.copy(value.count, from: base, to: nameStart + name.count) }
        }
    }

    /// Calls `body` with each field's name and value bytes, in order, until it returns false.
    @inline(__always)
    static func forEach(in bytes: UnsafeRawBufferPointer,
                        _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) rethrows {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            // Safe: records are written whole, so a record's lengths and bytes lie inside `bytes`.
            let nameCount = Int(base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let valueCount = Int(base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let nameStart = base + offset + lengthsSize
            let name = UnsafeRawBufferPointer(start: nameStart, count: nameCount)
            let value = UnsafeRawBufferPointer(start: nameStart + nameCount, count: valueCount)
            guard try body(name, value) else { return }
            offset += lengthsSize + nameCount + valueCount
        }
    }
}
