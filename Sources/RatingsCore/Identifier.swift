import ASCIIKit

/// Which kind of identifier a value is, so errors can name the offending path segment.
public enum IdentifierKind: String, Sendable {
    case item = "itemId"
    case rater = "raterId"
}

/// The contract's rule for identifiers: 1 to 128 characters of `A-Z a-z 0-9 . _ ~ : @ -`,
/// never the dot segments `.` or `..` (which clients and proxies rewrite).
public enum IdentifierRule {
    /// The longest identifier accepted.
    public static let maxLength = 128
    /// The characters allowed, as written in error details.
    public static let alphabetDescription = "A-Z a-z 0-9 . _ ~ : @ -"

    /// Returns why `text` is not an identifier, or nil when it is one.
    public static func problem(with text: String) -> String? {
        // One pass over the bytes, borrowed: every id of every request comes through here.
        text.withUTF8Bytes(problem(withBytes:))
    }

    /// Returns why the UTF-8 `bytes` are not an identifier, or nil when they are one.
    public static func problem(withBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let count = bytes.count
        if count == 0 { return "is empty; use 1 to \(maxLength) characters" }
        if count > maxLength { return "is \(count) bytes long; use at most \(maxLength) characters" }
        guard let dots = countDotsIfAllowed(bytes) else { return "contains a character outside \(alphabetDescription)" }
        if dots == count && count <= 2 { return "is a dot segment; '.' and '..' are not identifiers" }
        return nil
    }

    /// How many of `bytes` are dots, or nil when one is outside the alphabet.
    private static func countDotsIfAllowed(_ bytes: some Sequence<UInt8>) -> Int? {
        var dots = 0
        for byte in bytes {
            guard isAllowed(byte) else { return nil }
            if byte == UInt8(ascii: ".") { dots += 1 }
        }
        return dots
    }

    @inline(__always)
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
             UInt8(ascii: "@"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// The identifier of a rated item, valid by construction.
public struct ItemID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier as the client wrote it (after percent-decoding).
    public let rawValue: String
    /// `rawValue.hashValue`, computed once: a read looks its items up in two caches, a batch read
    /// twenty times over, and each lookup would hash the text again. Seeded per process, as every
    /// Swift hash is, so clients cannot choose ids that collide.
    public let precomputedHash: Int

    /// Validates `rawValue` against the identifier rule.
    public init(_ rawValue: String) throws(RatingError) {
        if let problem = IdentifierRule.problem(with: rawValue) {
            throw .invalidIdentifier(kind: .item, problem: problem)
        }
        self.init(stored: rawValue)
    }

    /// Validates UTF-8 `bytes` (a piece cut from a request) against the identifier rule, and
    /// makes text of them only when they pass.
    public init(validating bytes: UnsafeBufferPointer<UInt8>) throws(RatingError) {
        if let problem = IdentifierRule.problem(withBytes: bytes) {
            throw .invalidIdentifier(kind: .item, problem: problem)
        }
        self.init(stored: ASCII.text(bytes))
    }

    /// Rebuilds an identifier that was validated before it was stored.
    public init(stored rawValue: String) {
        self.rawValue = rawValue
        precomputedHash = rawValue.hashValue
    }

    public var description: String { rawValue }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(precomputedHash) }
}

/// The identifier of a rater (a user), valid by construction.
public struct RaterID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier as the client wrote it (after percent-decoding).
    public let rawValue: String

    /// Validates `rawValue` against the identifier rule.
    public init(_ rawValue: String) throws(RatingError) {
        if let problem = IdentifierRule.problem(with: rawValue) {
            throw .invalidIdentifier(kind: .rater, problem: problem)
        }
        self.rawValue = rawValue
    }

    /// Rebuilds an identifier that was validated before it was stored.
    public init(stored rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
