/// One whole number per star of a scale, `values[k]` for the star `k + 1`, held inline: a scale
/// has at most ten stars. A summary's histogram (how many ratings gave `k + 1` stars) and a
/// display's fill shares are kept so, without an array, so copying a summary out of a cache or
/// working out a display needs no allocation and no reference counting.
public struct PerStar: RandomAccessCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
    private typealias Storage = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)

    /// The most values one holds, as many as its storage has room for (the largest scale's
    /// stars; a test holds the two equal). Taken from the storage itself, so no value can ever
    /// be written past it.
    public static let capacity = MemoryLayout<Storage>.size / MemoryLayout<Int>.stride

    private var storage: Storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    public let endIndex: Int

    /// `length` values (at most `capacity`), the one for the star `k + 1` being `value(k)`. Not
    /// generic, and the closure does not escape, so filling one from a row allocates nothing.
    public init(length: Int, _ value: (Int) -> Int) {
        endIndex = Swift.min(Swift.max(length, 0), PerStar.capacity)
        withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = value(index) }
        }
    }

    /// The first `capacity` of `values`.
    public init(_ values: [Int]) { self.init(length: values.count) { values[$0] } }

    /// Exactly the values written.
    public init(arrayLiteral values: Int...) { self.init(values) }

    /// The first `length` values, padded with zeros when there are fewer.
    public func resized(to length: Int) -> PerStar {
        PerStar(length: length) { $0 < endIndex ? self[$0] : 0 }
    }

    public var startIndex: Int { 0 }

    public subscript(position: Int) -> Int {
        precondition(indices.contains(position), "star index out of range")
        // Safe: the tuple holds `capacity` Ints side by side and `position` was checked against
        // `endIndex`, which never exceeds it.
        return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: position * MemoryLayout<Int>.stride, as: Int.self) }
    }

    // Field by field: slots past `endIndex` are always zero (every init writes only the first
    // `endIndex`), so comparing all of them is exact, and cheaper than walking the collection
    // (a cached rendering is checked against the current summary on every read).
    public static func == (lhs: PerStar, rhs: PerStar) -> Bool {
        let (a, b) = (lhs.storage, rhs.storage)
        return lhs.endIndex == rhs.endIndex && a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3 && a.4 == b.4
            && a.5 == b.5 && a.6 == b.6 && a.7 == b.7 && a.8 == b.8 && a.9 == b.9
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(endIndex)
        for value in self { hasher.combine(value) }
    }

    /// The used values, writable, for building one.
    private mutating func withUnsafeMutableBufferPointer(_ body: (inout UnsafeMutableBufferPointer<Int>) -> Void) {
        let length = endIndex
        withUnsafeMutableBytes(of: &storage) { bytes in
            // Safe: the tuple is `capacity` Ints of one type, laid out contiguously; `length` is at most `capacity`.
            var buffer = UnsafeMutableBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: Int.self), count: length)
            body(&buffer)
        }
    }
}
