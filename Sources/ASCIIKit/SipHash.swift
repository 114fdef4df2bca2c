/// SipHash (Aumasson and Bernstein, 2012): a keyed hash of short inputs. Its 128-bit SipHash-2-4
/// seals the API's pagination cursors, so a cursor the server did not issue is recognised instead
/// of read; its 64-bit SipHash-1-3, the variant Swift's own `Hasher` runs, hashes the ids that
/// clients choose for the in-memory caches, under a key they cannot know.
public enum SipHash {
    /// A 128-bit key, as the two little-endian words of its 16 bytes.
    public struct Key: Sendable {
        public var k0: UInt64
        public var k1: UInt64

        public init(k0: UInt64, k1: UInt64) {
            self.k0 = k0
            self.k1 = k1
        }
    }

    /// The 128-bit SipHash-2-4 of `message` under the 16-byte `key` (`key` shorter than 16 bytes
    /// is padded with zeros; the server's keys are 32 random bytes, of which the first 16 are used).
    public static func mac128(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let k = key + [UInt8](repeating: 0, count: max(0, 16 - key.count))
        var state = State(Key(k0: littleEndian(k, 0), k1: littleEndian(k, 8)))
        state.v1 ^= 0xee
        message.withUnsafeBytes { state.absorb($0, rounds: 2) }
        state.v2 ^= 0xee
        let first = state.finish(rounds: 4)
        state.v1 ^= 0xdd
        let second = state.finish(rounds: 4)
        return bytes(first) + bytes(second)
    }

    /// The 64-bit SipHash-1-3 of `bytes` under `key`.
    public static func hash13(_ bytes: UnsafeRawBufferPointer, key: Key) -> UInt64 {
        hash64(bytes, key: key, compressionRounds: 1, finalizationRounds: 3)
    }

    /// The 64-bit SipHash-2-4 of `bytes` under `key`.
    public static func hash24(_ bytes: UnsafeRawBufferPointer, key: Key) -> UInt64 {
        hash64(bytes, key: key, compressionRounds: 2, finalizationRounds: 4)
    }

    /// Inlined into each variant, so its round counts are constants and the rounds unroll.
    @inline(__always)
    private static func hash64(_ bytes: UnsafeRawBufferPointer, key: Key, compressionRounds: Int, finalizationRounds: Int) -> UInt64 {
        var state = State(key)
        state.absorb(bytes, rounds: compressionRounds)
        state.v2 ^= 0xff
        return state.finish(rounds: finalizationRounds)
    }

    /// SipHash's four words of state and its round, shared by every variant.
    private struct State {
        var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64

        init(_ key: Key) {
            v0 = 0x736f_6d65_7073_6575 ^ key.k0
            v1 = 0x646f_7261_6e64_6f6d ^ key.k1
            v2 = 0x6c79_6765_6e65_7261 ^ key.k0
            v3 = 0x7465_6462_7974_6573 ^ key.k1
        }

        @inline(__always)
        mutating func round() {
            v0 = v0 &+ v1; v1 = rotate(v1, 13); v1 ^= v0; v0 = rotate(v0, 32)
            v2 = v2 &+ v3; v3 = rotate(v3, 16); v3 ^= v2
            v0 = v0 &+ v3; v3 = rotate(v3, 21); v3 ^= v0
            v2 = v2 &+ v1; v1 = rotate(v1, 17); v1 ^= v2; v2 = rotate(v2, 32)
        }

        @inline(__always)
        mutating func compress(_ word: UInt64, rounds: Int) {
            v3 ^= word
            for _ in 0..<rounds { round() }
            v0 ^= word
        }

        /// Every whole 8-byte word of `bytes`, then the last: the leftover bytes with the length's
        /// low byte on top.
        @inline(__always)
        mutating func absorb(_ bytes: UnsafeRawBufferPointer, rounds: Int) {
            // Safe: the bytes are only read, during the call; each word load ends at or before
            // `whole`, and each leftover byte read is below `count`.
            let whole = bytes.count & ~7
            var offset = 0
            while offset < whole {
                compress(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)), rounds: rounds)
                offset += 8
            }
            var last = UInt64(truncatingIfNeeded: bytes.count) &<< 56
            var shift: UInt64 = 0
            while offset < bytes.count {
                last |= UInt64(bytes[offset]) &<< shift
                offset += 1
                shift += 8
            }
            compress(last, rounds: rounds)
        }

        @inline(__always)
        mutating func finish(rounds: Int) -> UInt64 {
            for _ in 0..<rounds { round() }
            return v0 ^ v1 ^ v2 ^ v3
        }
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 { (value &<< bits) | (value &>> (64 &- bits)) }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private static func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
}
