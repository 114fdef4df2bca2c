import ASCIIKit
import HTTP1
import JSON
import Locking
import RatingsCore

/// Summaries already rendered as JSON, per item and language, so a hot item's answer copies
/// bytes instead of writing JSON and hashing it again. An entry is used only for the very summary
/// it was rendered from (every count compared), so it can never be stale: the store decides what
/// is current, this only remembers how it looked.
final class SummaryRenderings: Sendable {
    /// One item's summary in one language, rendered. A class, so the cache hands out one
    /// reference rather than a copy of every string and array inside it.
    final class Rendering: Sendable {
        let summary: ItemSummary
        /// The Summary object's JSON.
        let json: [UInt8]
        /// The hash the strong ETag of `json` alone as a body in this language quotes, kept
        /// so a list's ETag combines hashes instead of hashing the ETags' text.
        let etagHash: UInt64
        /// The header fields of `json` as a response (its strong ETag among them), made once: a
        /// response's copy shares them until the middleware adds its own.
        let headers: HTTPHeaders

        init(summary: ItemSummary, json: [UInt8], language: WireLanguage) {
            self.summary = summary
            self.json = json
            etagHash = Responses.etagHash(json, language.language.tag)
            headers = Responses.representationHeaders(in: language, etag: ASCII.hex(etagHash, quoted: true))
        }

        /// The summary as a `200` representation.
        var response: HTTPResponse { HTTPResponse(status: 200, headers: headers, body: json) }
    }

    private struct Key: Hashable, Sendable {
        let item: ItemID
        /// The language by identity, cheaper to hash than its tag on every read; the API's
        /// languages live as long as the API, and so as this cache, so an identity never moves.
        let language: ObjectIdentifier
    }

    private let cache: ShardedCache<Key, Rendering>

    /// Keeps about `capacity` renderings (a few hundred bytes each).
    init(capacity: Int) {
        // The item's own hash, with the language's address mixed in: no hashing per lookup.
        cache = ShardedCache(capacity: capacity) { key in
            UInt64(UInt(bitPattern: key.item.precomputedHash)) ^ UInt64(UInt(bitPattern: key.language))
        }
    }

    /// `summary` rendered in `language`: from memory when it was rendered before, else now.
    func rendering(of summary: ItemSummary, in language: WireLanguage) -> Rendering {
        cache.value(of: Key(item: summary.item, language: ObjectIdentifier(language)), isCurrent: { $0.summary == summary }) {
            var json = JSONWriter(capacity: 384)
            WireFormat(language: language).summary(summary, into: &json)
            return Rendering(summary: summary, json: json.bytes, language: language)
        }
    }
}
