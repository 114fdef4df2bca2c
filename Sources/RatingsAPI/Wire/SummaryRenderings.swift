import JSON
import Locking
import RatingsCore

/// Summaries already rendered as JSON, per item and language, so a hot item's answer copies
/// bytes instead of writing JSON and hashing it again. An entry is used only for the very summary
/// it was rendered from (every count compared), so it can never be stale: the store decides what
/// is current, this only remembers how it looked.
final class SummaryRenderings: Sendable {
    /// One item's summary in one language, rendered.
    struct Rendering: Sendable {
        let summary: ItemSummary
        /// The Summary object's JSON.
        let json: [UInt8]
        /// The strong ETag of `json` alone as a body in this language.
        let etag: String
    }

    private struct Key: Hashable, Sendable {
        let item: String
        let language: String
    }

    private let cache: ShardedCache<Key, Rendering>

    /// Keeps about `capacity` renderings (a few hundred bytes each).
    init(capacity: Int) {
        cache = ShardedCache(capacity: capacity)
    }

    /// `summary` rendered in `language`: from memory when it was rendered before, else now.
    func rendering(of summary: ItemSummary, in language: WireLanguage) -> Rendering {
        let key = Key(item: summary.item.rawValue, language: language.language.tag)
        if let cached = cache.withShard(of: key, { $0.value(key) }), cached.summary == summary { return cached }
        var json = JSONWriter(capacity: 384)
        WireFormat(language: language).summary(summary, into: &json)
        let rendering = Rendering(summary: summary, json: json.bytes, etag: Responses.etag(json.bytes, language.language.tag))
        cache.withShard(of: key) { $0.store(key, rendering) }
        return rendering
    }
}
