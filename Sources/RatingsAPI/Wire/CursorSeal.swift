import ASCIIKit
import RatingsCore

/// Pagination cursors: opaque to clients, tamper-evident to the server. A cursor is
/// base64url(kind ‖ position ‖ tag), the tag a 128-bit SipHash-2-4 of the kind, what the cursor is
/// bound to (the rater it lists) and the position, under the secret every process on the same
/// data shares, so a cursor one replica issued is accepted by every other and any other text is
/// refused instead of being read as a position.
struct CursorSeal: Sendable {
    /// What a cursor pages through; a cursor of one kind is never accepted for another.
    enum Kind: UInt8 {
        case raterRatings = 1
        case ranking = 2
        case raterReviews = 3
        case itemReviews = 4
        case moderationQueue = 5
    }

    private static let tagLength = 16
    let secret: [UInt8]

    func seal(_ kind: Kind, boundTo binding: String, position: [UInt8]) -> String {
        Base64URL.encode([kind.rawValue] + position + tag(kind, binding, position))
    }

    /// The position inside `text`, or nil when the server did not issue it for this kind and binding.
    func open(_ text: String, _ kind: Kind, boundTo binding: String) -> [UInt8]? {
        guard text.utf8.count <= 1_024, let bytes = Base64URL.decode(text), bytes.count > 1 + Self.tagLength,
              bytes[0] == kind.rawValue else { return nil }
        let position = Array(bytes[1..<(bytes.count - Self.tagLength)])
        let given = bytes.suffix(Self.tagLength)
        let expected = tag(kind, binding, position)
        // Compared in full whatever differs, so the time taken says nothing about the tag.
        var difference: UInt8 = 0
        for (a, b) in zip(given, expected) { difference |= a ^ b }
        return difference == 0 ? position : nil
    }

    private func tag(_ kind: Kind, _ binding: String, _ position: [UInt8]) -> [UInt8] {
        let bound = Array(binding.utf8)
        return SipHash.mac128([kind.rawValue] + CursorBytes.integer(bound.count) + bound + position, key: secret)
    }
}

/// The byte layout of cursor positions: fixed-width big-endian integers, then an identifier.
enum CursorBytes {
    static func integer(_ value: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func readInteger(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.prefix(8).reduce(0) { $0 << 8 | Int($1) }
    }

    static func raterPosition(_ position: RaterPagePosition) -> [UInt8] {
        integer(Int(position.updatedAtMilliseconds)) + Array(position.item.rawValue.utf8)
    }

    static func raterPosition(_ bytes: [UInt8]) -> RaterPagePosition? {
        guard bytes.count > 8, let item = String(validating: bytes[8...], as: UTF8.self) else { return nil }
        return RaterPagePosition(updatedAtMilliseconds: Int64(readInteger(bytes[..<8])), item: ItemID(stored: item))
    }

    static func reviewPosition(_ position: ReviewPosition) -> [UInt8] {
        integer(Int(position.key)) + integer(Int(position.createdAtMilliseconds)) + Array(position.rater.rawValue.utf8)
    }

    static func reviewPosition(_ bytes: [UInt8]) -> ReviewPosition? {
        guard bytes.count > 16, let rater = String(validating: bytes[16...], as: UTF8.self) else { return nil }
        return ReviewPosition(key: Int64(readInteger(bytes[0..<8])), createdAtMilliseconds: Int64(readInteger(bytes[8..<16])),
                              rater: RaterID(stored: rater))
    }

    static func queuePosition(_ position: QueuePosition) -> [UInt8] {
        integer(Int(position.pendingSinceMilliseconds)) + integer(position.item.rawValue.utf8.count) + Array(position.item.rawValue.utf8)
            + Array(position.rater.rawValue.utf8)
    }

    static func queuePosition(_ bytes: [UInt8]) -> QueuePosition? {
        guard bytes.count > 16 else { return nil }
        let itemLength = readInteger(bytes[8..<16])
        guard itemLength > 0, itemLength < bytes.count - 16,
              let item = String(validating: bytes[16..<(16 + itemLength)], as: UTF8.self),
              let rater = String(validating: bytes[(16 + itemLength)...], as: UTF8.self) else { return nil }
        return QueuePosition(pendingSinceMilliseconds: Int64(readInteger(bytes[0..<8])), item: ItemID(stored: item), rater: RaterID(stored: rater))
    }

    static func rankingPosition(_ position: RankingPosition) -> [UInt8] {
        integer(position.scoreHigh) + integer(position.scoreLow) + integer(position.count) + Array(position.item.rawValue.utf8)
    }

    static func rankingPosition(_ bytes: [UInt8]) -> RankingPosition? {
        guard bytes.count > 24, let item = String(validating: bytes[24...], as: UTF8.self) else { return nil }
        return RankingPosition(scoreHigh: readInteger(bytes[0..<8]), scoreLow: readInteger(bytes[8..<16]),
                               count: readInteger(bytes[16..<24]), item: ItemID(stored: item))
    }
}
