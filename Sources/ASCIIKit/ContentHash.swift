/// A 64-bit hash of a body for noticing change (ETags), eight bytes at a time. Each step xors a
/// word into the state, multiplies it by an odd constant and rotates it: every step is a
/// bijection of the state, so a change of any one word (or of the length) always changes the
/// hash. Stable across processes and versions of the program; not a defence against anyone
/// choosing inputs on purpose.
public enum ContentHash {
    @usableFromInline static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The hash of `bytes`.
    @inlinable
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            // Read as little-endian whatever the machine, so the hash is the same everywhere.
            state = mix(state, UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << UInt64(8 * (index - offset)) }
            state = mix(state, tail)
        }
        return mix(state, 0)
    }

    /// The hash of `bytes`.
    @inlinable
    public static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }

    @inlinable
    static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let product = (state ^ word) &* multiplier
        return product << 29 | product >> 35
    }
}
