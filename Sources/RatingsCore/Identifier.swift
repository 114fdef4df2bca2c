import ASCIIKit

/// Which kind of identifier a value is, so errors can name the offending path segment.
public enum IdentifierKind: String, Sendable {
    case item = "itemId"
    case rater = "raterId"
}

/// The API's rule for identifiers: 1 to 128 characters of `A-Z a-z 0-9 . _ ~ : @ -`,
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
        for byte in bytes where !isAllowed(byte) { return "contains a character outside \(alphabetDescription)" }
        if count <= 2 && bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { return "is a dot segment; '.' and '..' are not identifiers" }
        return nil
    }

    /// Whether `byte` is in the alphabet. Two 64-bit masks over ASCII (bit n of the first is byte
    /// n, of the second byte 64 + n) rather than a chain of ranges: every byte of every id in
    /// every request comes through here.
    @inline(__always)
    static func isAllowed(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x07FF_6000_0000_0000 // - . 0-9 :
        let high: UInt64 = 0x47FF_FFFE_87FF_FFFF // @ A-Z _ a-z ~
        return byte < 64 ? low &>> byte & 1 != 0 : byte < 128 && high &>> (byte &- 64) & 1 != 0
    }
}

/// The identifier of a rated item, valid by construction.
public struct ItemID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier as the client wrote it (after percent-decoding).
    public let rawValue: String
    /// The SipHash-1-3 of the id's bytes, computed once: a read looks its items up in two caches,
    /// a batch read twenty times over, and each lookup would hash the text again. Keyed per
    /// process, as every Swift hash is, so clients cannot choose ids that collide. Hashed straight
    /// from the bytes rather than through `String.hashValue`, which costs twice as much for an id
    /// of a few bytes (its `Hasher` takes the bytes piece by piece through generic calls).
    public let precomputedHash: Int

    /// Drawn from Swift's own per-process hashing seed: random in every process, fixed only where
    /// `SWIFT_DETERMINISTIC_HASHING` fixes Swift's own hashes.
    private static let hashKey: SipHash.Key = {
        var first = Hasher(), second = Hasher()
        first.combine(0 as UInt8)
        second.combine(1 as UInt8)
        return SipHash.Key(k0: UInt64(UInt(bitPattern: first.finalize())), k1: UInt64(UInt(bitPattern: second.finalize())))
    }()

    /// Validates `rawValue` against the identifier rule.
    public init(_ rawValue: String) throws(RatingError) {
        // One borrow of the bytes for the check and the hash.
        let checked = rawValue.withUTF8Bytes { bytes in
            Result { () throws(RatingError) in try ItemID(checking: bytes, text: { rawValue }) }
        }
        self = try checked.get()
    }

    /// Validates UTF-8 `bytes` (a piece cut from a request) against the identifier rule, and
    /// makes text of them only when they pass.
    public init(validating bytes: UnsafeBufferPointer<UInt8>) throws(RatingError) {
        try self.init(checking: bytes, text: { ASCII.text(bytes) })
    }

    /// The one check of both validating inits: `bytes` against the rule, then `text()`, their
    /// text, asked for only when they pass.
    private init(checking bytes: UnsafeBufferPointer<UInt8>, text: () -> String) throws(RatingError) {
        if let problem = IdentifierRule.problem(withBytes: bytes) {
            throw .invalidIdentifier(kind: .item, problem: problem)
        }
        self.init(rawValue: text(), bytes: bytes)
    }

    /// Rebuilds an identifier that was validated before it was stored.
    public init(stored rawValue: String) {
        self = rawValue.withUTF8Bytes { ItemID(rawValue: rawValue, bytes: $0) }
    }

    /// `bytes` are `rawValue`'s UTF-8, only read during the call (which makes the pointer safe).
    private init(rawValue: String, bytes: UnsafeBufferPointer<UInt8>) {
        self.rawValue = rawValue
        precomputedHash = Int(truncatingIfNeeded: SipHash.hash13(UnsafeRawBufferPointer(bytes), key: Self.hashKey))
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
