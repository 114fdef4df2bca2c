import ASCIIKit

/// What every store keeps beside the ratings for all processes on the same data: the names of
/// the settings rows, and how the cursor secret is made and read back.
public enum SharedSettings {
    /// The row holding the secret that seals pagination cursors (64 hexadecimal digits).
    public static let cursorSecretName = "cursor-secret"
    /// The row holding the ranking settings the stored score keys were computed with.
    public static let rankingName = "ranking"
    /// The row `ratings copy` keeps while it writes a database, naming the source and when the
    /// copy began; a database holding it is incomplete, and no server opens it.
    public static let copyIncompleteName = "copy-incomplete"

    /// A new secret: 32 bytes from the system's random generator, as hexadecimal text.
    public static func newCursorSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in ASCII.hex(UInt64(UInt8.random(in: 0...255, using: &generator)), width: 2) }.joined()
    }

    /// The bytes of a stored secret; nil when the text is not hexadecimal.
    public static func secretBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = ASCII.hexValue(digits[index]), let low = ASCII.hexValue(digits[index + 1]) else { return nil }
            bytes.append(UInt8(high * 16 + low))
        }
        return bytes
    }
}
