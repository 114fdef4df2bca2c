/// A fixed-size hash table (open addressing, linear probing) for one generation of a
/// `ShardedCache` shard. The caller hands in each key's hash, which its cache computed once, so a
/// lookup compares stored hashes and, on a match, the key: no hashing of the key here, where a
/// `Dictionary` hashes it again on every lookup. It never grows: the shard starts a new one when
/// one is full, and at most three quarters of the slots are ever in use (about what a
/// `Dictionary` allows itself), so a probe always meets an empty slot, after a few steps.
@usableFromInline
struct ProbeTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Each slot's hash, 0 when the slot is empty (a real hash of 0 is stored as 1).
    @usableFromInline var hashes: [UInt64]
    @usableFromInline var keys: [Key?]
    @usableFromInline var values: [Value?]
    @usableFromInline var count = 0
    @usableFromInline let capacity: Int

    /// Room for `capacity` entries, in the fewest slots (a power of two, at least 8) that keeps
    /// them to three quarters full: the slots hold the values themselves, so spare ones cost memory.
    @usableFromInline
    init(capacity: Int) {
        self.capacity = max(1, capacity)
        var slots = 8
        while slots * 3 < self.capacity * 4 { slots <<= 1 }
        hashes = Array(repeating: 0, count: slots)
        keys = Array(repeating: nil, count: slots)
        values = Array(repeating: nil, count: slots)
    }

    @inlinable var mask: Int { hashes.count - 1 }

    @inlinable static func stored(_ hash: UInt64) -> UInt64 { hash == 0 ? 1 : hash }

    /// The first slot to try for `hash`: its product with 2^64/φ, high bits first, so every bit of
    /// the hash counts and none of the low ones that chose the shard decide alone.
    @inlinable func home(_ hash: UInt64) -> Int { Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask }

    /// The slot that holds `key`, or nil.
    @inlinable
    func slot(of key: Key, hash: UInt64) -> Int? {
        let hash = Self.stored(hash)
        var slot = home(hash)
        while hashes[slot] != 0 {
            if hashes[slot] == hash && keys[slot] == key { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    @inlinable
    func value(_ key: Key, hash: UInt64) -> Value? { slot(of: key, hash: hash).flatMap { values[$0] } }

    /// Sets the value of `key`; false, changing nothing, when `key` is new and the table is full.
    @inlinable
    mutating func set(_ key: Key, hash: UInt64, _ value: Value) -> Bool {
        let hash = Self.stored(hash)
        var slot = home(hash)
        while hashes[slot] != 0 {
            if hashes[slot] == hash && keys[slot] == key {
                values[slot] = value
                return true
            }
            slot = (slot + 1) & mask
        }
        guard count < capacity else { return false }
        hashes[slot] = hash
        keys[slot] = key
        values[slot] = value
        count += 1
        return true
    }

    /// Removes `key` and returns its value, if it was there.
    @inlinable
    @discardableResult
    mutating func remove(_ key: Key, hash: UInt64) -> Value? {
        guard var hole = slot(of: key, hash: hash) else { return nil }
        let removed = values[hole]
        // Backward shift: later entries of the same run move up into the hole when their home
        // slot is at or before it, so every entry stays reachable from its home without tombstones.
        var next = (hole + 1) & mask
        while hashes[next] != 0 {
            let distanceFromHome = (next - home(hashes[next])) & mask
            if distanceFromHome >= (next - hole) & mask {
                hashes[hole] = hashes[next]
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        hashes[hole] = 0
        keys[hole] = nil
        values[hole] = nil
        count -= 1
        return removed
    }
}
