/// FNV-1a, 64 bits: a fast, stable hash for noticing change (ETags, migration checksums). Not a
/// defence against anyone choosing inputs on purpose.
public struct FNV1a: Sendable, Equatable {
    @usableFromInline static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x0000_0100_0000_01b3

    @usableFromInline var state = FNV1a.offsetBasis

    /// The hash of everything added so far.
    @inlinable public var value: UInt64 { state }

    public init() {}

    /// Folds `bytes` into the hash.
    @inlinable
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        // Over the bytes' own storage when they have one (a String's UTF-8 view does): walking
        // the view index by index costs several times the hashing itself.
        if bytes.withContiguousStorageIfAvailable({ fold($0) }) == nil { fold(bytes) }
    }

    @inlinable
    mutating func fold(_ bytes: some Sequence<UInt8>) {
        var hash = state
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        state = hash
    }

    /// Folds one byte into the hash (a separator between fields, say).
    @inlinable
    public mutating func add(byte: UInt8) { state = (state ^ UInt64(byte)) &* Self.prime }

    /// Folds the eight bytes of `value`, least significant first (another hash, say).
    @inlinable
    public mutating func add(_ value: UInt64) {
        var hash = state
        for shift in stride(from: 0, to: 64, by: 8) { hash = (hash ^ (value >> UInt64(shift) & 0xff)) &* Self.prime }
        state = hash
    }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hex: String { ASCII.hex(state) }
    /// The state as 16 lowercase hex digits between double quotes: a strong entity tag.
    public var quotedHex: String { ASCII.hex(state, quoted: true) }

    /// The hash of `bytes`.
    @inlinable
    public static func hash(_ bytes: some Sequence<UInt8>) -> FNV1a {
        var hash = FNV1a()
        hash.add(bytes)
        return hash
    }
}
