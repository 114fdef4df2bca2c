import HTTP1
import Locking
import RatingsCore

/// Pages of an item's reviews already rendered, per request (item, order, filter, cursor,
/// limit) and language, each with the store's review-list version it was read under. An entry
/// answers only while the store reports the same version (`ReviewStore.reviewListVersion`), which
/// moves before any write that changes the item's lists is acknowledged, so it is never stale;
/// with a store that vouches for no version nothing is kept.
final class ReviewPageRenderings: Sendable {
    /// One page's answer and the version it was read under.
    final class Rendering: Sendable {
        let version: UInt64
        let body: [UInt8]
        let headers: HTTPHeaders

        init(version: UInt64, body: [UInt8], headers: HTTPHeaders) {
            self.version = version
            self.body = body
            self.headers = headers
        }

        var response: HTTPResponse { HTTPResponse(status: 200, headers: headers, body: body) }
    }

    /// A request for a page: what it lists, where it starts, how much, in which language.
    struct Key: Hashable, Sendable {
        let item: ItemID
        /// Order, filter, cursor and limit, as the binding of cursors writes the first two.
        let query: String
        /// By identity: the API's languages live as long as it does.
        let language: ObjectIdentifier
    }

    /// Nil when no page is kept.
    private let cache: ShardedCache<Key, Rendering>?

    /// Keeps about `capacity` pages (a page of 20 reviews of 400 characters is about 20 KB); none for 0.
    init(capacity: Int) {
        cache = capacity == 0 ? nil : ShardedCache(capacity: capacity) { key in
            UInt64(UInt(bitPattern: key.item.precomputedHash)) ^ UInt64(UInt(bitPattern: key.query.hashValue))
        }
    }

    /// The page's answer when it was rendered under `version`.
    func response(_ key: Key, version: UInt64) -> HTTPResponse? {
        cache?.withShard(of: key) { shard in
            guard let rendering = shard.value(key), rendering.version == version else { return nil }
            return rendering.response
        }
    }

    /// Keeps `response`, read under `version`.
    func keep(_ response: HTTPResponse, for key: Key, version: UInt64) {
        guard let cache else { return }
        let rendering = Rendering(version: version, body: response.body, headers: response.headers)
        cache.withShard(of: key) { $0.store(key, rendering) }
    }
}
