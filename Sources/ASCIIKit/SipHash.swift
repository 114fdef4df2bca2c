/// SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash that serves as a message
/// authentication code for short inputs. The API seals pagination cursors with its 128-bit form,
/// so a cursor the server did not issue is recognised instead of read.
public enum SipHash {
    /// The 128-bit SipHash-2-4 of `message` under the 16-byte `key` (`key` shorter than 16 bytes
    /// is padded with zeros; the server's keys are 32 random bytes, of which the first 16 are used).
    public static func mac128(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        let k = key + [UInt8](repeating: 0, count: max(0, 16 - key.count))
        let k0 = littleEndian(k, 0), k1 = littleEndian(k, 8)
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1 ^ 0xee
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1

        func round() {
            v0 = v0 &+ v1; v1 = rotate(v1, 13); v1 ^= v0; v0 = rotate(v0, 32)
            v2 = v2 &+ v3; v3 = rotate(v3, 16); v3 ^= v2
            v0 = v0 &+ v3; v3 = rotate(v3, 21); v3 ^= v0
            v2 = v2 &+ v1; v1 = rotate(v1, 17); v1 ^= v2; v2 = rotate(v2, 32)
        }
        func absorb(_ m: UInt64) {
            v3 ^= m
            round(); round()
            v0 ^= m
        }

        let whole = message.count / 8 * 8
        var index = 0
        while index < whole {
            absorb(littleEndian(message, index))
            index += 8
        }
        var last = UInt64(truncatingIfNeeded: message.count) << 56
        for (shift, byte) in message[whole...].enumerated() { last |= UInt64(byte) << (8 * UInt64(shift)) }
        absorb(last)

        v2 ^= 0xee
        round(); round(); round(); round()
        let first = v0 ^ v1 ^ v2 ^ v3
        v1 ^= 0xdd
        round(); round(); round(); round()
        let second = v0 ^ v1 ^ v2 ^ v3
        return bytes(first) + bytes(second)
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 { (value << bits) | (value >> (64 - bits)) }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private static func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
}
