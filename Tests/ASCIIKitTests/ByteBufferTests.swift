import ASCIIKit
import Testing

@Suite("ByteBuffer: pieces appended in order, growing as needed")
struct ByteBufferTests {
    @Test("every kind of piece lands in order, across many growths")
    func appendsInOrder() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        let long = String(repeating: "é", count: 300) // not a small string, and not ASCII
        for round in 0..<200 {
            buffer.append("HTTP/1.1 " as StaticString); expected += Array("HTTP/1.1 ".utf8)
            buffer.appendDecimal(round - 100); expected += Array(String(round - 100).utf8)
            buffer.append(UInt8(ascii: " ")); expected.append(UInt8(ascii: " "))
            buffer.append("ok"); expected += Array("ok".utf8)
            buffer.append(long); expected += Array(long.utf8)
            buffer.append([1, 2, 3]); expected += [1, 2, 3]
            buffer.append([]); buffer.append("")
            buffer.append("nul\u{0}inside"); expected += Array("nul\u{0}inside".utf8)
        }
        #expect(buffer.count == expected.count && buffer.capacity >= buffer.count)
        #expect(buffer.bytes == expected)
        buffer.withUnsafeBytes { #expect(Array($0) == expected) }
    }

    @Test("pieces of every length up to 40 bytes, short ones copied inline, arrive whole and in order")
    func appendsEveryLength() {
        var buffer = ByteBuffer()
        var expected: [UInt8] = []
        for length in 0...40 {
            let piece = (0..<length).map { UInt8(truncatingIfNeeded: length &* 31 &+ $0) }
            piece.withUnsafeBytes { buffer.append($0) }
            expected += piece
            buffer.append(UInt8(ascii: "|")); expected.append(UInt8(ascii: "|"))
        }
        #expect(buffer.bytes == expected)
    }

    @Test("decimals at the edges of Int", arguments: [0, 7, -7, 9, 10, 99, 100, 1_000_000, Int.max, Int.min])
    func decimals(value: Int) {
        var buffer = ByteBuffer(capacity: 4)
        buffer.appendDecimal(value)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
    }

    @Test("emptied, it keeps its storage up to the given size and frees larger storage")
    func removeAll() {
        var buffer = ByteBuffer()
        buffer.append([UInt8](repeating: 7, count: 1_000))
        buffer.removeAll(keepingCapacityUpTo: 4_096)
        #expect(buffer.isEmpty && buffer.capacity >= 1_000)
        buffer.append([UInt8](repeating: 8, count: 5_000))
        buffer.removeAll(keepingCapacityUpTo: 4_096)
        #expect(buffer.isEmpty && buffer.capacity == 0)
        buffer.append("again")
        #expect(buffer.bytes == Array("again".utf8))
    }

    @Test("dropping a prefix keeps the rest in order, in place, and dropping more than it holds empties it",
          arguments: [0, 1, 7, 8, 4_095, 4_096, 10_000, 20_000])
    func removeFirst(count: Int) {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var buffer = ByteBuffer()
        bytes.withUnsafeBytes { buffer.append($0) }
        let capacity = buffer.capacity
        buffer.removeFirst(count)
        #expect(buffer.bytes == Array(bytes.dropFirst(count)))
        #expect(buffer.capacity == capacity)
        buffer.append(7)
        #expect(buffer.last == 7 && buffer.count == max(0, 10_000 - count) + 1)
    }
}
