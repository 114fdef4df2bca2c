/// A bounded map that many threads share: entries spread over shards, each behind its own lock,
/// and each shard keeps two generations. A hit in the older generation moves the entry to the
/// newer one; when the newer fills up, the older is dropped whole. Hot entries so survive any
/// amount of cold traffic, and making room costs O(1), where evicting "any" entry tends to hit
/// the same hot ones again and again.
public final class ShardedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One shard's entries, used inside `withShard`.
    public struct Shard: Sendable {
        @usableFromInline var current: [Key: Value] = [:]
        @usableFromInline var previous: [Key: Value] = [:]
        @usableFromInline let generationCapacity: Int
        /// Counts the changes a caller chose to count (see `SummaryCache`); the cache only keeps it.
        public var changes: UInt64 = 0

        init(generationCapacity: Int) { self.generationCapacity = generationCapacity }

        /// The value for `key`, if cached.
        @inlinable public mutating func value(_ key: Key) -> Value? {
            if let value = current[key] { return value }
            guard let value = previous.removeValue(forKey: key) else { return nil }
            store(key, value)
            return value
        }

        /// Caches `value` for `key`, replacing any older one.
        @inlinable public mutating func store(_ key: Key, _ value: Value) {
            if current.count >= generationCapacity && current[key] == nil {
                previous = current
                current = [:]
            }
            current[key] = value
        }

        /// Forgets `key`.
        @inlinable public mutating func remove(_ key: Key) {
            current[key] = nil
            previous[key] = nil
        }
    }

    @usableFromInline let shards: [Locked<Shard>]
    /// Picks a key's shard; see `init`.
    @usableFromInline let spread: @Sendable (Key) -> UInt64

    /// Holds at most about `capacity` entries (0 caches nothing useful: every store replaces the last).
    /// `spread` turns a key into bits that pick its shard; by default its `hashValue`, but a cheap
    /// hash of its bytes serves as well and saves a second full hash per lookup (the shard's
    /// dictionary hashes the key again), which on a batch read is twenty times per request. Only
    /// lock spreading depends on it, so a poor or predictable one costs contention, never correctness.
    public init(capacity: Int, shardCount: Int = 16,
                spread: @escaping @Sendable (Key) -> UInt64 = { UInt64(UInt(bitPattern: $0.hashValue)) }) {
        let perGeneration = max(1, capacity / shardCount / 2)
        shards = (0..<shardCount).map { _ in Locked(Shard(generationCapacity: perGeneration)) }
        self.spread = spread
    }

    /// Runs `body` on the shard that holds `key`, under that shard's lock.
    @inlinable
    public func withShard<Result>(of key: Key, _ body: (inout Shard) throws -> Result) rethrows -> Result {
        try shard(key).withLock(body)
    }

    @inlinable
    func shard(_ key: Key) -> Locked<Shard> {
        let bits = spread(key)
        return shards[Int((bits ^ bits >> 32) % UInt64(shards.count))]
    }
}
