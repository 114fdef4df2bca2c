import JSON
import Locking
import RatingsCore

/// Display objects already rendered, per value, scale and language, so a repeated
/// `/v1/display` copies bytes instead of working out the stars, writing the JSON and hashing it
/// for the ETag. A rendering is a pure function of its key, so an entry can only be evicted,
/// never wrong.
final class DisplayRenderings: Sendable {
    /// One Display object's JSON and the strong ETag of it as a body in its language.
    final class Rendering: Sendable {
        let json: [UInt8]
        let etag: String

        init(json: [UInt8], etag: String) {
            self.json = json
            self.etag = etag
        }
    }

    private struct Key: Hashable, Sendable {
        /// The value as parsed, before clamping: 3.3 and 3.30 are two keys for one rendering.
        let value: ExactValue
        let maxRating: Int
        /// The language by identity; the API's languages live as long as this cache.
        let language: ObjectIdentifier
    }

    private let cache: ShardedCache<Key, Rendering>

    /// Keeps about `capacity` renderings (a few hundred bytes each).
    init(capacity: Int) {
        cache = ShardedCache(capacity: capacity)
    }

    /// `value` displayed on `scale` in `language`, rendered: from memory when it was before, else now.
    func rendering(of value: ExactValue, on scale: Scale, in language: WireLanguage) -> Rendering {
        cache.value(of: Key(value: value, maxRating: scale.maxRating, language: ObjectIdentifier(language))) {
            var json = JSONWriter(capacity: 512)
            WireFormat(language: language).display(Display(value, on: scale), into: &json)
            let body = json.bytes
            return Rendering(json: body, etag: Responses.etag(body, language.language.tag))
        }
    }
}
