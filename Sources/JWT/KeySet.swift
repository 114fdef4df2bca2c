import ASCIIKit
import JSON
import RatingsCore

/// The keys tokens may be signed with: one key (a shared secret or a PEM key), or a JWK Set
/// (RFC 7517 §5) whose keys are named by `kid`. A token's `kid` chooses its key; a token
/// without one is accepted only when there is a single key to choose.
public struct KeySet: Sendable {
    /// The keys by `kid`; a single key without a name is stored under "".
    let keys: [String: SignatureKey]

    init(single key: SignatureKey) { keys = ["": key] }

    /// The one RS256 or ES256 key of a PEM file.
    public init(publicKeyPEM pem: String) throws(KeyError) { self.init(single: try SignatureKey(publicKeyPEM: pem)) }

    /// Reads a JWK Set: `{"keys": [{"kty": "RSA", "kid", "n", "e"}, {"kty": "EC", "crv": "P-256", "kid", "x", "y"}]}`.
    /// Keys meant for encryption (`use: enc`) are skipped; a key whose `alg` names another
    /// algorithm than its type allows, an RSA key under 2048 bits, a point off P-256, two keys
    /// with one `kid`, or a set with no usable key is refused, with the reason.
    public init(jwks bytes: [UInt8]) throws(KeyError) {
        guard let document = try? JSONParser.parse(bytes), case .array(let entries)? = document["keys"] else {
            throw KeyError(message: "not a JWK Set: expected a JSON object with a \"keys\" array")
        }
        var keys: [String: SignatureKey] = [:]
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else { throw KeyError(message: "keys[\(index)] is not an object") }
            if case .string("enc")? = entry["use"] { continue }
            let kid: String
            switch entry["kid"] {
            case .string(let name)?: kid = name
            case nil where entries.count == 1: kid = ""
            default: throw KeyError(message: "keys[\(index)] has no kid; every key of a set with several keys needs one")
            }
            guard keys[kid] == nil else { throw KeyError(message: "two keys have the kid \(JSONText.quoted(kid))") }
            let key: SignatureKey
            do {
                key = try Self.signingKey(entry)
            } catch {
                throw KeyError(message: "keys[\(index)] (kid \(JSONText.quoted(kid))): \(error.message)")
            }
            if case .string(let alg)? = entry["alg"], alg != key.algorithm.rawValue {
                throw KeyError(message: "keys[\(index)] (kid \(JSONText.quoted(kid))) says alg \(alg), but its key can only be \(key.algorithm.rawValue)")
            }
            keys[kid] = key
        }
        guard !keys.isEmpty else { throw KeyError(message: "the JWK Set holds no signing key") }
        self.keys = keys
    }

    private static func signingKey(_ entry: JSONValue) throws(KeyError) -> SignatureKey {
        func bytes(_ member: String) throws(KeyError) -> [UInt8] {
            guard case .string(let text)? = entry[member], let bytes = Base64URL.decode(text), !bytes.isEmpty else {
                throw KeyError(message: "\(member) is missing or not base64url")
            }
            return bytes
        }
        switch entry["kty"] {
        case .string("RSA")?:
            return try SignatureKey(rsaModulus: try bytes("n"), exponent: try bytes("e"))
        case .string("EC")?:
            guard case .string("P-256")? = entry["crv"] else { throw KeyError(message: "only the P-256 curve is supported (ES256)") }
            return try SignatureKey(p256X: try bytes("x"), y: try bytes("y"))
        default:
            throw KeyError(message: "kty must be RSA or EC")
        }
    }

    /// The kids, for logs.
    public var names: [String] { keys.keys.sorted() }

    /// The key a token with this header (`kid`, `alg`) must verify under.
    func key(kid: String?, alg: String) throws(IdentityError) -> SignatureKey {
        let key: SignatureKey
        if let kid {
            guard let named = keys[kid] ?? (keys.count == 1 ? keys[""] : nil) else { throw .unknownKey(kid) }
            key = named
        } else {
            guard keys.count == 1, let only = keys.values.first else { throw .malformed("the token names no key (kid) and several are configured") }
            key = only
        }
        guard alg == key.algorithm.rawValue else { throw .algorithmNotAllowed(alg) }
        return key
    }
}
