import ASCIIKit
import CCrypto

/// HS256 tokens (RFC 7515 compact serialization) signed from raw bytes, so a header or claims
/// set need not be valid UTF-8 or JSON. Used by `TestTokens` and by the token fuzzer, which
/// scripts/fuzz.sh builds with this file.
public enum HS256Token {
    /// `base64url(header).base64url(claims).base64url(HMAC-SHA256(secret, those two))`.
    public static func sign(header: [UInt8], claims: [UInt8], secret: [UInt8]) -> String {
        let input = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let data = Array(input.utf8)
        _ = HMAC(EVP_sha256(), secret, Int32(secret.count), data, data.count, &mac, &length)
        return input + "." + Base64URL.encode(Array(mac.prefix(Int(length))))
    }
}
