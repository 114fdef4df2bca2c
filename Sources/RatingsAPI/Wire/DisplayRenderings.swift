import HTTP1
import Locking
import RatingsCore

/// Display objects already rendered as responses, per value, scale and language, so a repeated
/// `/v1/display` copies a response instead of working out the stars, writing the JSON, hashing
/// it for the ETag and making the header fields. A rendering is a pure function of its key, so an
/// entry can only be evicted, never wrong.
final class DisplayRenderings: Sendable {
    private struct Key: Hashable, Sendable {
        /// The value as parsed, before clamping: 3.3 and 3.30 are two keys for one rendering.
        let value: ExactValue
        let maxRating: Int
        /// The language by identity; the API's languages live as long as this cache.
        let language: ObjectIdentifier
    }

    private let cache: ShardedCache<Key, HTTPResponse>

    /// Keeps about `capacity` renderings (a few hundred bytes each).
    init(capacity: Int) {
        cache = ShardedCache(capacity: capacity)
    }

    /// `value` displayed on `scale` in `language`, as a `200` response: from memory when it was
    /// rendered before, else now.
    func response(for value: ExactValue, on scale: Scale, in language: WireLanguage) -> HTTPResponse {
        cache.value(of: Key(value: value, maxRating: scale.maxRating, language: ObjectIdentifier(language))) {
            Responses.representation(in: language) { wire, json in wire.display(Display(value, on: scale), into: &json) }
        }
    }
}
