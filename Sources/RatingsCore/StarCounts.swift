/// How many ratings an item has of each star count, `counts[k]` for `k + 1` stars, held inline:
/// a scale has at most ten stars, so a summary carries its histogram without an array, and
/// copying a summary out of a cache (twenty times for a batch) costs no allocation and no
/// reference counting.
public struct StarCounts: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    private typealias Storage = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

    /// The most counts one holds, as many as its storage has room for (the largest scale's
    /// stars; a test holds the two equal). Taken from the storage itself, so no count can ever
    /// be written past it.
    public static let capacity = MemoryLayout<Storage>.size / MemoryLayout<Int>.stride

    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    public let endIndex: Int

    /// `length` counts (at most `capacity`), the one for `k + 1` stars being `count(k)`. Not
    /// generic, and the closure does not escape, so filling one from a row allocates nothing.
    public init(length: Int, _ count: (Int) -> Int) {
        endIndex = Swift.min(Swift.max(length, 0), StarCounts.capacity)
        withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = count(index) }
        }
    }

    /// The counts of `counts` (at most `capacity` of them).
    public init(_ counts: [Int]) { self.init(length: counts.count) { counts[$0] } }

    /// Exactly the counts written.
    public init(arrayLiteral counts: Int...) { self.init(counts) }

    /// The first `length` counts, padded with zeros when there are fewer.
    public func resized(to length: Int) -> StarCounts {
        StarCounts(length: length) { $0 < endIndex ? self[$0] : 0 }
    }

    public var startIndex: Int { 0 }

    public subscript(position: Int) -> Int {
        precondition(indices.contains(position), "star count index out of range")
        // Safe: the tuple holds `capacity` Ints side by side and `position` was checked against
        // `endIndex`, which never exceeds it.
        return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: position * MemoryLayout<Int>.stride, as: Int.self) }
    }

    // Field by field: slots past `endIndex` are always zero (every init writes only the first
    // `endIndex`), so comparing all of them is exact, and cheaper than walking the collection
    // (a cached rendering is checked against the current summary on every read).
    public static func == (lhs: StarCounts, rhs: StarCounts) -> Bool {
        let (a, b) = (lhs.storage, rhs.storage)
        return lhs.endIndex == rhs.endIndex && a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4
            && a.5 == b.5 && a.6 == b.6 && a.7 == b.7 && a.8 == b.8 && a.9 == b.9
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(endIndex)
        for count in self { hasher.combine(count) }
    }

    /// The used counts, writable, for building one.
    private mutating func withUnsafeMutableBufferPointer(_ body: (inout UnsafeMutableBufferPointer<Int>) -> Void) {
        let length = endIndex
        withUnsafeMutableBytes(of: &storage) { bytes in
            // Safe: the tuple is `capacity` Ints of one type, laid out contiguously; `length` is at most `capacity`.
            var buffer = UnsafeMutableBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: Int.self), count: length)
            body(&buffer)
        }
    }
}
