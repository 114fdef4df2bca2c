import Locking
import RatingsCore

/// The rows of recently read and written items, so a read of a hot item touches no SQLite, takes
/// no file lock and never leaves the caller's thread. It is exact: the file belongs to one
/// process (`ratings serve` claims it), the single writer puts every row it changes here after
/// COMMIT and before any write is acknowledged, and a reader's row fills the cache only when no
/// write to its shard happened while it read, so a row older than an acknowledged write can never
/// be put back.
final class SummaryCache: Sendable {
    /// What the cache knows of an item: its summary, or that it has no row.
    enum Entry: Sendable {
        case absent
        case summary(ItemSummary)
    }

    private struct Shard {
        var entries: [String: Entry] = [:]
        /// Counts the writer's updates, so a reader can tell whether one happened while it read.
        var writes: UInt64 = 0
    }

    private static let shardCount = 16
    private let shards: [Locked<Shard>]
    private let capacityPerShard: Int

    /// A cache of about `capacity` items.
    init(capacity: Int) {
        shards = (0..<Self.shardCount).map { _ in Locked(Shard()) }
        capacityPerShard = max(1, capacity / Self.shardCount)
    }

    private func shard(_ item: String) -> Locked<Shard> {
        var hash: UInt32 = 2_166_136_261
        for byte in item.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return shards[Int(hash % UInt32(Self.shardCount))]
    }

    /// The cached entry, or nil when the item is not cached.
    func entry(_ item: ItemID) -> Entry? { shard(item.rawValue).withLock { $0.entries[item.rawValue] } }

    /// Marks the start of a read of `item` from the file; pass the mark to `fill`.
    func beginRead(_ item: ItemID) -> UInt64 { shard(item.rawValue).withLock { $0.writes } }

    /// Caches what a read found, unless the writer changed the shard since `mark`.
    func fill(_ item: ItemID, _ entry: Entry, readSince mark: UInt64) {
        shard(item.rawValue).withLock { shard in
            guard shard.writes == mark else { return }
            insert(item.rawValue, entry, into: &shard)
        }
    }

    /// The writer's committed rows. Called after COMMIT and before the writes are acknowledged.
    func committed(_ rows: [String: SummaryRow]) {
        for (item, row) in rows {
            let entry = Entry.summary(row.summary(of: ItemID(stored: item)))
            shard(item).withLock { shard in
                shard.writes &+= 1
                insert(item, entry, into: &shard)
            }
        }
    }

    /// Forgets items whose transaction rolled back: the cache keeps no row the file lacks.
    func forget(_ items: some Sequence<String>) {
        for item in items {
            shard(item).withLock { shard in
                shard.writes &+= 1
                shard.entries[item] = nil
            }
        }
    }

    private func insert(_ item: String, _ entry: Entry, into shard: inout Shard) {
        if shard.entries[item] == nil && shard.entries.count >= capacityPerShard, let victim = shard.entries.keys.first {
            // Any entry may go: the cache holds hot items because they keep coming back.
            shard.entries[victim] = nil
        }
        shard.entries[item] = entry
    }
}
