import Locking
import RatingsCore

/// The rows of recently read and written items, so a read of a hot item touches no SQLite, takes
/// no file lock and never leaves the caller's thread. It is exact: the file belongs to one
/// process (`ratings serve` claims it), every row the single writer changes is put here once its
/// commit is durable (by the WAL syncer, in commit order) and before any write is acknowledged,
/// and a reader's row fills the cache only when no such update to its shard happened while it
/// read, so a row older than an acknowledged write can never be put back. A reader may fill in a
/// row committed but not yet synced: newer than every acknowledged write.
final class SummaryCache: Sendable {
    /// What the cache knows of an item: its summary, or that it has no row.
    enum Entry: Sendable {
        case absent
        case summary(ItemSummary)

        /// The summary this entry stands for: an item without a row is `empty` on `defaultScale`.
        func summary(of item: ItemID, defaultScale: Scale) -> ItemSummary {
            switch self {
            case .absent: .empty(item, on: defaultScale)
            case .summary(let summary): summary
            }
        }
    }

    /// The shards' change counters count the writer's updates, so a reader can tell whether one
    /// happened while it read.
    private let entries: ShardedCache<ItemID, Entry>

    /// Each item's review-list version (`reviewListVersion`): a value of its shard's change
    /// counter, which only grows, so an item's version never comes back once it has moved on.
    private let reviewListVersions: ShardedCache<ItemID, UInt64>

    /// A cache of about `capacity` items.
    init(capacity: Int) {
        entries = ShardedCache(capacity: capacity) { UInt64(UInt(bitPattern: $0.precomputedHash)) }
        reviewListVersions = ShardedCache(capacity: capacity) { UInt64(UInt(bitPattern: $0.precomputedHash)) }
    }

    /// A number that moves whenever a committed write changes anything the item's review lists
    /// show; take it before reading a list, and the list stays current for as long as it does not
    /// move. An item whose version was forgotten is given the shard's counter, which every
    /// version of every item of the shard so far is at most: a list read under an older one is
    /// then older than it, and one read under the same value was read after the last change.
    func reviewListVersion(of item: ItemID) -> UInt64 {
        reviewListVersions.withShard(of: item) { shard in
            if let version = shard.value(item) { return version }
            shard.store(item, shard.changes)
            return shard.changes
        }
    }

    /// The cached entry, or nil when the item is not cached.
    func entry(_ item: ItemID) -> Entry? { entries.withShard(of: item) { $0.value(item) } }

    /// Appends the item's summary (`empty` on `defaultScale` when it has no row) to `summaries`;
    /// false, appending nothing, when the item is not cached. Appended under the shard's lock
    /// rather than handed back as an entry first: a batch reads twenty, and a summary is large
    /// enough that each copy of it counts.
    func appendSummary(of item: ItemID, defaultScale: Scale, to summaries: inout [ItemSummary]) -> Bool {
        entries.withShard(of: item) { shard in
            guard let entry = shard.value(item) else { return false }
            summaries.append(entry.summary(of: item, defaultScale: defaultScale))
            return true
        }
    }

    /// Marks the start of a read of `item` from the file; pass the mark to `fill`.
    func beginRead(_ item: ItemID) -> UInt64 { entries.withShard(of: item) { $0.changes } }

    /// Caches what a read found, unless the writer changed the shard since `mark`.
    func fill(_ item: ItemID, _ entry: Entry, readSince mark: UInt64) {
        entries.withShard(of: item) { shard in
            guard shard.changes == mark else { return }
            shard.store(item, entry)
        }
    }

    /// The writer's committed rows and review lists. Called once their commit is durable and
    /// before its writes are acknowledged.
    func committed(_ changes: ItemChanges) {
        for (item, row) in changes.rows {
            let entry = Entry.summary(row.summary(of: item))
            entries.withShard(of: item) { shard in
                shard.changes &+= 1
                shard.store(item, entry)
            }
        }
        moveReviewListVersions(of: changes.reviewLists)
    }

    /// Forgets what a transaction that rolled back (or whose sync failed) changed: the cache keeps
    /// no row the file lacks, and no list read before it stays current.
    func forget(_ changes: ItemChanges) {
        for item in changes.rows.keys {
            entries.withShard(of: item) { shard in
                shard.changes &+= 1
                shard.remove(item)
            }
        }
        moveReviewListVersions(of: changes.reviewLists)
    }

    private func moveReviewListVersions(of items: Set<ItemID>) {
        for item in items {
            reviewListVersions.withShard(of: item) { shard in
                shard.changes &+= 1
                shard.store(item, shard.changes)
            }
        }
    }
}
