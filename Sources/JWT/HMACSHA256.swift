internal import CCrypto

/// HMAC-SHA256 with libcrypto: HS256 tokens and Standard Webhooks signatures both use it.
public enum HMACSHA256 {
    /// The MAC of `input` under `key` (empty if libcrypto fails, which no valid key makes it do).
    public static func mac(_ key: [UInt8], _ input: [UInt8]) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard HMAC(EVP_sha256(), key, Int32(key.count), input, input.count, &mac, &length) != nil else { return [] }
        return Array(mac.prefix(Int(length)))
    }
}
