/// A base64 alphabet (RFC 4648 §4 and §5 differ only in theirs) and the coding both share.
struct Base64Codec: Sendable {
    private let alphabet: [UInt8]
    private let values: [UInt8]

    init(_ characters: String) {
        alphabet = Array(characters.utf8)
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        values = table
    }

    /// The decoded bytes of unpadded `input`, or nil for any character outside the alphabet or
    /// a length that no encoding produces.
    func decode(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        guard input.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0, bits = 0
        for byte in input {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, or two texts would decode to the same bytes.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    /// Encodes `bytes`, with `=` padding to a multiple of four characters when `padded`.
    func encode(_ bytes: [UInt8], padded: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output += [alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)], alphabet[Int(chunk & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let chunk = UInt32(bytes[index]) << 16
            output += [alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)]]
        } else if rest == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output += [alphabet[Int(chunk >> 18 & 63)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)]]
        }
        if padded { output += Array(repeating: UInt8(ascii: "="), count: (4 - output.count % 4) % 4) }
        return String(decoding: output, as: UTF8.self)
    }
}

/// base64url without padding (RFC 4648 §5), as JWS compact serialization uses it (RFC 7515 §2).
public enum Base64URL {
    private static let codec = Base64Codec("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The decoded bytes, or nil for any character outside the alphabet, padding, or a length
    /// that no encoding produces.
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? { codec.decode(Array(text.utf8)[...]) }

    /// Encodes bytes without padding.
    public static func encode(_ bytes: [UInt8]) -> String { codec.encode(bytes, padded: false) }
}

/// base64 with padding (RFC 4648 §4), as Standard Webhooks secrets and signatures are written.
public enum Base64 {
    private static let codec = Base64Codec("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// The decoded bytes of padded text (a multiple of four characters, at most two `=` at the
    /// end), or nil for anything else.
    public static func decode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        return codec.decode(input[..<(input.count - padding)])
    }

    /// Encodes bytes with padding.
    public static func encode(_ bytes: [UInt8]) -> String { codec.encode(bytes, padded: true) }
}
