/// FNV-1a, 64 bits: a fast, stable hash for noticing change (ETags, migration checksums). Not a
/// defence against anyone choosing inputs on purpose.
public struct FNV1a: Sendable, Equatable {
    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of everything added so far.
    public private(set) var value = FNV1a.offsetBasis

    public init() {}

    /// Folds `bytes` into the hash.
    @inline(__always)
    public mutating func add(_ bytes: some Sequence<UInt8>) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        value = hash
    }

    /// Folds one byte into the hash (a separator between fields, say).
    public mutating func add(byte: UInt8) { value = (value ^ UInt64(byte)) &* Self.prime }

    /// The hash as 16 lowercase hexadecimal digits.
    public var hex: String { ASCII.hex(value) }

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> FNV1a {
        var hash = FNV1a()
        hash.add(bytes)
        return hash
    }
}
