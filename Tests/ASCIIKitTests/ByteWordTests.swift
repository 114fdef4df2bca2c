import ASCIIKit
import Testing

@Suite("Eight bytes at once: every answer is the one a byte-at-a-time look gives")
struct ByteWordTests {
    /// Words of filler bytes around one byte under test, the fillers chosen to sit at the edges
    /// of the ranges tested (a borrow or a carry from them would show).
    static let fillers: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0xFF]

    static func words(_ body: (_ word: UInt64, _ bytes: [UInt8]) -> Void) {
        for filler in fillers {
            for position in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = byte
                    let word = bytes.withUnsafeBytes { ByteWord.load($0.baseAddress!, at: 0) }
                    body(word, bytes)
                }
            }
        }
    }

    @Test("below, above and equal to, at the values the server asks about and at the extremes")
    func exactAnswers() {
        var wrong = 0
        Self.words { word, bytes in
            for limit: UInt8 in [0x00, 0x01, 0x20, 0x21, 0x7F, 0x80] where (ByteWord.flags(below: limit, in: word) != 0) != bytes.contains(where: { $0 < limit }) {
                wrong += 1
            }
            for limit: UInt8 in [0x00, 0x20, 0x7E, 0x7F] where (ByteWord.flags(above: limit, in: word) != 0) != bytes.contains(where: { $0 > limit }) {
                wrong += 1
            }
            for value: UInt8 in [0x00, 0x22, 0x5C, 0x7F, 0x80, 0xFF] where (ByteWord.flags(equalTo: value, in: word) != 0) != bytes.contains(value) {
                wrong += 1
            }
        }
        #expect(wrong == 0)
    }

    @Test("a scan finds a refused byte at any place in any length, words and tail alike")
    func scans() {
        for length in 0...19 {
            for position in 0..<max(length, 1) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if length > 0 { bytes[position] = UInt8(ascii: " ") }
                let found = bytes.withUnsafeBytes { ByteWord.allSatisfy($0, suspect: { ByteWord.flags(below: 0x21, in: $0) != 0 }, { $0 > 0x20 }) }
                #expect(found == (length == 0), "length \(length), space at \(position)")
            }
        }
    }
}

@Suite("ContentHash: a change of any byte, or of the length, changes the hash")
struct ContentHashTests {
    @Test("every single-byte change of a 37-byte body, and every prefix, hashes differently")
    func changes() {
        let body = Array("{\"reviews\":[{\"body\":\"Broth.\"}],\"x\":1}".utf8)
        var seen: Set<UInt64> = [ContentHash.hash(body)]
        for index in body.indices {
            var changed = body
            changed[index] ^= 0x20
            #expect(seen.insert(ContentHash.hash(changed)).inserted, "byte \(index)")
        }
        for length in 0..<body.count { #expect(seen.insert(ContentHash.hash(Array(body.prefix(length)))).inserted, "prefix \(length)") }
        #expect(ContentHash.hash(Array(repeating: 0, count: 8)) != ContentHash.hash(Array(repeating: 0, count: 16)))
    }

    @Test("the hash is fixed: replicas of different versions give a body the same ETag")
    func fixedValue() {
        #expect(ContentHash.hash(Array("ratings".utf8)) == 7_156_141_657_008_474_284)
        #expect(ContentHash.hash(Array("a page of reviews, longer than eight".utf8)) == 9_934_966_667_006_696_156)
        #expect(ContentHash.hash([]) != ContentHash.hash([0]))
    }
}
