import ASCIIKit
import JWT

/// The Standard Webhooks signature: `v1,` and the base64 of HMAC-SHA256 over
/// `"<webhook-id>.<webhook-timestamp>.<body>"`, keyed with the secret's decoded bytes.
public enum WebhookSignature {
    public static func sign(id: String, timestampSeconds: Int64, body: [UInt8], secret: [UInt8]) -> String {
        "v1," + Base64.encode(HMACSHA256.mac(secret, Array("\(id).\(timestampSeconds).".utf8) + body))
    }
}
