internal import CCrypto

/// The one key a verifier checks signatures with. The key decides the algorithm: an HMAC secret
/// accepts only HS256, an RSA public key only RS256, a P-256 public key only ES256, so a token
/// cannot pick a weaker check (algorithm confusion, e.g. HS256 keyed with the public key).
final class SignatureKey: Sendable {
    enum Algorithm: String, Sendable {
        case hs256 = "HS256"
        case rs256 = "RS256"
        case es256 = "ES256"
    }

    let algorithm: Algorithm
    private let secret: [UInt8]
    // Safe: the EVP_PKEY is created in init, only read by EVP_DigestVerify (thread-safe for
    // concurrent verifications in OpenSSL 3), and freed once in deinit.
    private nonisolated(unsafe) let publicKey: OpaquePointer?

    /// An HS256 shared secret.
    init(secret: [UInt8]) {
        algorithm = .hs256
        self.secret = secret
        publicKey = nil
    }

    /// An RS256 or ES256 public key from PEM (`-----BEGIN PUBLIC KEY-----`).
    convenience init(publicKeyPEM pem: String) throws(KeyError) {
        var pem = pem
        let key: OpaquePointer? = pem.withUTF8 { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let key else { throw KeyError(message: "not a PEM public key (expected -----BEGIN PUBLIC KEY-----)") }
        try self.init(taking: key)
    }

    /// An RS256 key from a JWK's base64url modulus and exponent (RFC 7518 §6.3).
    convenience init(rsaModulus n: [UInt8], exponent e: [UInt8]) throws(KeyError) {
        guard let key = ratings_rsa_public_key(n, n.count, e, e.count) else { throw KeyError(message: "n and e do not make an RSA public key") }
        try self.init(taking: key)
    }

    /// An ES256 key from a JWK's P-256 coordinates (RFC 7518 §6.2), refused when not on the curve.
    convenience init(p256X x: [UInt8], y: [UInt8]) throws(KeyError) {
        guard x.count == 32, y.count == 32 else { throw KeyError(message: "x and y of a P-256 key are 32 bytes each") }
        guard let key = ratings_p256_public_key(x, y) else { throw KeyError(message: "x and y are not a point on P-256") }
        try self.init(taking: key)
    }

    /// Takes ownership of `key`, choosing the algorithm from its type; frees it when refused.
    private init(taking key: OpaquePointer) throws(KeyError) {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA:
            guard EVP_PKEY_get_bits(key) >= 2048 else {
                EVP_PKEY_free(key)
                throw KeyError(message: "RSA keys shorter than 2048 bits are refused")
            }
            algorithm = .rs256
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            var length = 0
            EVP_PKEY_get_group_name(key, &name, name.count, &length)
            guard String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1" else {
                EVP_PKEY_free(key)
                throw KeyError(message: "EC keys must be on P-256 (prime256v1) for ES256")
            }
            algorithm = .es256
        default:
            EVP_PKEY_free(key)
            throw KeyError(message: "only RSA (RS256) and P-256 EC (ES256) public keys are supported")
        }
        publicKey = key
        secret = []
    }

    deinit { if let publicKey { EVP_PKEY_free(publicKey) } }

    /// Whether `signature` signs `input` under this key.
    func verifies(_ signature: [UInt8], over input: [UInt8]) -> Bool {
        switch algorithm {
        case .hs256: return verifyHMAC(signature, input)
        case .rs256: return verifyDigest(signature, input)
        case .es256:
            guard let der = Self.derSignature(fromRaw: signature) else { return false }
            return verifyDigest(der, input)
        }
    }

    private func verifyHMAC(_ signature: [UInt8], _ input: [UInt8]) -> Bool {
        let mac = HMACSHA256.mac(secret, input)
        guard !mac.isEmpty, mac.count == signature.count else { return false }
        // Constant time, so the comparison does not leak how much of a forged MAC was right.
        return CRYPTO_memcmp(mac, signature, signature.count) == 0
    }

    private func verifyDigest(_ signature: [UInt8], _ input: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, publicKey) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, input, input.count) == 1
    }

    /// JWS carries ES256 signatures as raw r‖s (64 bytes, RFC 7518 §3.4); OpenSSL wants DER.
    private static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        // Safe: raw.count == 64 (checked above), so bytes 32..<64 are inside the buffer.
        let r = BN_bin2bn(raw, 32, nil), s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else { return nil }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &der)
        guard length > 0, let der else { return nil }
        defer { CRYPTO_free(der, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: der, count: Int(length)))
    }
}

/// Why a configured key cannot be used; start-up stops with this message.
public struct KeyError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
