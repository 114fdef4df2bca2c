/// A bounded map that many threads share: entries spread over shards, each behind its own lock,
/// and each shard keeps two generations. A hit in the older generation moves the entry to the
/// newer one; when the newer fills up, the older is dropped whole. Hot entries so survive any
/// amount of cold traffic, and making room costs O(1), where evicting "any" entry tends to hit
/// the same hot ones again and again.
public final class ShardedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// One shard's entries, used inside `withShard`.
    public struct Shard: Sendable {
        @usableFromInline var current: ProbeTable<Key, Value>
        @usableFromInline var previous: ProbeTable<Key, Value>
        @usableFromInline let spread: @Sendable (Key) -> UInt64
        /// Counts the changes a caller chose to count (see `SummaryCache`); the cache only keeps it.
        public var changes: UInt64 = 0

        init(generationCapacity: Int, spread: @escaping @Sendable (Key) -> UInt64) {
            current = ProbeTable(capacity: generationCapacity)
            previous = ProbeTable(capacity: 0)
            self.spread = spread
        }

        /// The value for `key`, if cached.
        @inlinable public mutating func value(_ key: Key) -> Value? { value(key, hash: spread(key)) }

        @inlinable mutating func value(_ key: Key, hash: UInt64) -> Value? {
            if let value = current.value(key, hash: hash) { return value }
            guard let value = previous.remove(key, hash: hash) else { return nil }
            put(key, hash, value)
            return value
        }

        /// Caches `value` for `key`, replacing any older one.
        @inlinable public mutating func store(_ key: Key, _ value: Value) { put(key, spread(key), value) }

        @inlinable mutating func put(_ key: Key, _ hash: UInt64, _ value: Value) {
            guard !current.set(key, hash: hash, value) else { return }
            // The newer generation is full: it becomes the older, and the older is dropped whole.
            previous = current
            current = ProbeTable(capacity: previous.capacity)
            _ = current.set(key, hash: hash, value)
        }

        /// Forgets `key`.
        @inlinable public mutating func remove(_ key: Key) {
            let hash = spread(key)
            current.remove(key, hash: hash)
            previous.remove(key, hash: hash)
        }
    }

    /// The shards, for as long as the cache lives.
    @usableFromInline let shards: [Locked<Shard>]
    /// Picks a key's shard; see `init`.
    @usableFromInline let spread: @Sendable (Key) -> UInt64

    /// Holds at most about `capacity` entries (0 caches nothing useful: every store replaces the last).
    /// `spread` is the key's hash: its bits pick the shard and the slot in it, and it is called
    /// once per step (twice through `withShard`), so a key that carries a hash computed once (as `ItemID` does)
    /// makes a lookup cost no hashing at all. By default the key's `hashValue`. It must be as good
    /// as that: seeded per process, so nobody can choose keys that collide and turn a lookup into
    /// a long search; equal keys need equal spreads, and unequal ones may share one.
    public init(capacity: Int, shardCount: Int = 16,
                spread: @escaping @Sendable (Key) -> UInt64 = { UInt64(UInt(bitPattern: $0.hashValue)) }) {
        let perGeneration = max(1, capacity / shardCount / 2)
        shards = (0..<shardCount).map { _ in Locked(Shard(generationCapacity: perGeneration, spread: spread)) }
        self.spread = spread
    }

    /// Runs `body` on the shard that holds `key`, under that shard's lock.
    @inlinable
    public func withShard<Result>(of key: Key, _ body: (inout Shard) throws -> Result) rethrows -> Result {
        try withShard(hash: spread(key), body)
    }

    /// The cached value of `key` when there is one and `isCurrent` accepts it; else `make()`'s,
    /// cached for the next caller. `make` runs outside the lock, so however long it takes, other
    /// lookups of the shard go on meanwhile (two callers may then both make the value).
    @inlinable
    public func value(of key: Key, isCurrent: (Value) -> Bool = { _ in true }, orMake make: () -> Value) -> Value {
        // Hashed once for the lookup and the store: with the default spread that is a full hash.
        let hash = spread(key)
        if let cached = withShard(hash: hash, { $0.value(key, hash: hash) }), isCurrent(cached) { return cached }
        let made = make()
        withShard(hash: hash) { $0.put(key, hash, made) }
        return made
    }

    /// Runs `body` under the lock of the shard that `bits` (a key's spread) picks.
    @inlinable
    func withShard<Result>(hash bits: UInt64, _ body: (inout Shard) throws -> Result) rethrows -> Result {
        let index = Int((bits ^ bits >> 32) % UInt64(shards.count))
        return try shards[index].withLock(body)
    }
}
