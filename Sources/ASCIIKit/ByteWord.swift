/// Tests on eight bytes at once, read as one `UInt64`: whether any of them is below, above or
/// equal to a value. A scan (of request targets, field values, JSON strings) asks them of each
/// word and looks at the bytes one by one only in a word that may need it.
///
/// Whether the flags are zero is exact: a byte's high bit is set by `(w - n…) & ~w` when that
/// byte is below `n`, by `(w + (0x7F - n)…) | w` when it is above `n`, and a borrow or a carry
/// between bytes only starts at a byte the test flags already (so which bytes are flagged is not).
public enum ByteWord {
    // Computed, so that no use checks a global's lazy initialization.
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `offset` from `base`, in memory order (first byte lowest); the caller
    /// makes sure all eight lie inside its buffer.
    @inlinable @inline(__always)
    public static func load(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Nonzero when a byte of `word` is below `limit` (at most 0x80). Only zero or not is
    /// meaningful, so that tests can be or-ed together and asked once.
    @inlinable @inline(__always)
    public static func flags(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- UInt64(limit) &* ones) & ~word & highBits
    }

    /// Nonzero when a byte of `word` is above `limit` (below 0x80): bytes from 0x80 up always are.
    @inlinable @inline(__always)
    public static func flags(above limit: UInt8, in word: UInt64) -> UInt64 {
        ((word &+ UInt64(0x7F &- limit) &* ones) | word) & highBits
    }

    /// Nonzero when a byte of `word` is `byte`.
    @inlinable @inline(__always)
    public static func flags(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        let matches = word ^ (UInt64(byte) &* ones)
        return (matches &- ones) & ~matches & highBits
    }

    /// Whether every byte of `bytes` is `allowed`, asked of each byte only in the words for which
    /// `suspect` is true: it must be true of every word holding a byte that is not allowed.
    @inlinable @inline(__always)
    public static func allSatisfy(_ bytes: UnsafeRawBufferPointer, suspect: (UInt64) -> Bool, _ allowed: (UInt8) -> Bool) -> Bool {
        firstIndex(in: bytes, from: 0, suspect: suspect, where: { !allowed($0) }) == nil
    }

    /// The first index from `start` whose byte `matches`, asked of each byte only in the words for
    /// which `suspect` is true: it must be true of every word holding a matching byte.
    @inlinable @inline(__always)
    public static func firstIndex(in bytes: UnsafeRawBufferPointer, from start: Int, suspect: (UInt64) -> Bool,
                                  where matches: (UInt8) -> Bool) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = start
        while count &- index >= 8 {
            // Safe: index + 8 <= count, so the word, and each byte looked at, lies inside `bytes`.
            if suspect(load(base, at: index)) {
                for offset in index..<index &+ 8 where matches(base.load(fromByteOffset: offset, as: UInt8.self)) { return offset }
            }
            index &+= 8
        }
        while index < count {
            if matches(base.load(fromByteOffset: index, as: UInt8.self)) { return index }
            index &+= 1
        }
        return nil
    }
}
