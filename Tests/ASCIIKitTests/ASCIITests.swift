import ASCIIKit
import Testing

@Suite("ASCII helpers: classes, hex, bounded integers, padding, trimming")
struct ASCIITests {
    @Test("bytes are classified exactly at the edges of each class")
    func classesAtTheirEdges() {
        #expect(ASCII.isDigit(UInt8(ascii: "0")) && ASCII.isDigit(UInt8(ascii: "9")))
        #expect(!ASCII.isDigit(UInt8(ascii: "/")) && !ASCII.isDigit(UInt8(ascii: ":")))
        #expect(ASCII.isLetter(UInt8(ascii: "A")) && ASCII.isLetter(UInt8(ascii: "z")))
        #expect(!ASCII.isLetter(UInt8(ascii: "@")) && !ASCII.isLetter(UInt8(ascii: "[")) && !ASCII.isLetter(UInt8(ascii: "`")) && !ASCII.isLetter(UInt8(ascii: "{")))
        #expect(!ASCII.isLetter(0xC3) && !ASCII.isDigit(0xB0))
        #expect(ASCII.lowercased(UInt8(ascii: "Q")) == UInt8(ascii: "q") && ASCII.lowercased(UInt8(ascii: "[")) == UInt8(ascii: "["))
    }

    @Test("hex digits in either case, and nothing else", arguments: [
        ("0", 0 as Int?), ("9", 9), ("a", 10), ("F", 15), ("f", 15), ("g", nil), ("G", nil), ("/", nil), (":", nil), ("@", nil), ("`", nil),
    ])
    func hexDigits(character: String, value: Int?) {
        #expect(ASCII.hexValue(character.utf8.first!) == value)
    }

    @Test("a bounded integer is read at each bound and refused just past it, whatever its length", arguments: [
        ("0", 0...10, 0 as Int?), ("10", 0...10, 10), ("11", 0...10, nil), ("000010", 0...10, 10),
        ("1000000", 0...1_000_000, 1_000_000), ("1000001", 0...1_000_000, nil), ("0001000000", 1...1_000_000, 1_000_000),
        ("0", 1...5, nil), ("", 0...5, nil), ("-1", 0...5, nil), ("+1", 0...5, nil), (" 1", 0...5, nil), ("1.0", 0...5, nil),
        ("99999999999999999999999999", 0...Int.max, nil), ("9223372036854775807", 0...Int.max, Int.max),
        ("9223372036854775808", 0...Int.max, nil), ("٣", 0...9, nil),
    ])
    func boundedIntegers(text: String, range: ClosedRange<Int>, value: Int?) {
        #expect(ASCII.integer(text, in: range) == value)
    }

    @Test("padding and hex keep their width and never cut")
    func padding() {
        #expect(ASCII.padded(7, 3) == "007" && ASCII.padded(1234, 3) == "1234" && ASCII.padded(0, 2) == "00")
        #expect(ASCII.hex(255, width: 4) == "00ff" && ASCII.hex(UInt64.max) == "ffffffffffffffff")
        #expect(ASCII.hex(0, width: 2) == "00" && ASCII.hex(0x12345, width: 2) == "12345" && ASCII.hex(0) == "0000000000000000")
        #expect(ASCII.hex(255, width: 4, quoted: true) == "\"00ff\"" && FNV1a.hash("a".utf8).quotedHex == "\"af63dc4c8601ec8c\"")
        // After a prefix, short (inline) and long (on the heap) alike, quoted or not.
        #expect(ASCII.hex(0x2a, width: 1, after: "id-") == "id-2a" && ASCII.hex(0, width: 1, after: "") == "0")
        #expect(ASCII.hex(UInt64.max, width: 1, after: "ca211e8d41f120ea-") == "ca211e8d41f120ea-ffffffffffffffff")
        #expect(ASCII.hex(255, width: 4, quoted: true, after: "W/") == "W/\"00ff\"")
    }

    @Test("a string's UTF-8 is lent as it is: every byte, a NUL or a non-ASCII one included")
    func utf8Bytes() {
        for text in ["", "a", "a\u{0}b", "Ä-é-\u{1F600}", String(repeating: "long text ", count: 10) + "\u{0}"] {
            #expect(text.withUTF8Bytes { Array($0) } == Array(text.utf8))
        }
        let slice = "prefix-middle-suffix".dropFirst(7).dropLast(7)
        #expect(String(slice).withUTF8Bytes { Array($0) } == Array("middle".utf8))
    }

    @Test("UTF-8 bytes become the same text String(decoding:) makes, short or long, ASCII or not")
    func text() {
        for text in ["", "a", "bench-37", "exactly-15-char", "sixteen-chars-id", "Ä-é-\u{1F600}", String(repeating: "x", count: 128)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { ASCII.text($0) } == text)
        }
    }

    @Test("lines come out in runs of whole lines no longer than the limit, a longer line alone, every byte once")
    func runsOfWholeLines() {
        func runs(_ text: String, _ limit: Int) -> [String] {
            var runs: [String] = []
            Array(text.utf8).withUnsafeBytes { bytes in
                ASCII.forEachRunOfWholeLines(in: bytes, atMost: limit) { runs.append(String(decoding: $0, as: UTF8.self)) }
            }
            return runs
        }
        #expect(runs("", 10).isEmpty)
        #expect(runs("ab\ncd\nef\n", 100) == ["ab\ncd\nef\n"])
        // Exactly at the limit, and one byte over it.
        #expect(runs("ab\ncd\n", 6) == ["ab\ncd\n"])
        #expect(runs("ab\ncd\nef\n", 8) == ["ab\ncd\n", "ef\n"])
        // A line longer than the limit is a run of its own, never cut.
        #expect(runs("a\n0123456789\nb\n", 4) == ["a\n", "0123456789\n", "b\n"])
        // A last line without its newline still comes out, whole.
        #expect(runs("ab\ncdefgh", 4) == ["ab\n", "cdefgh"])
        // Many log-sized lines: every run ends a line and fits, and together they are the input.
        let lines = (0..<500).map { "2026-12-03T09:00:40.916Z 127.0.0.1 \"GET /v1/items/unread-\($0) HTTP/1.1\" 200 310 1us\n" }.joined()
        let pieces = runs(lines, 4096)
        #expect(pieces.joined() == lines)
        #expect(pieces.allSatisfy { $0.hasSuffix("\n") && $0.utf8.count <= 4096 })
        // And they are full: the next run's first line would not have fitted.
        for (run, next) in zip(pieces, pieces.dropFirst()) {
            let firstLine = next.utf8.prefix { $0 != UInt8(ascii: "\n") }.count + 1
            #expect(run.utf8.count + firstLine > 4096)
        }
    }

    @Test("pieces between separators come out in order, empty ones included")
    func pieces() {
        func split(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
            var pieces: [String] = []
            ASCII.forEachSlice(of: bytes, separatedBy: UInt8(ascii: ",")) { pieces.append(String(decoding: $0, as: UTF8.self)) }
            return pieces
        }
        func split(_ text: String) -> [String] { Array(text.utf8).withUnsafeBufferPointer(split) }
        #expect(split("a,bc,d") == ["a", "bc", "d"])
        #expect(split(",a,,b,") == ["", "a", "", "b", ""])
        #expect(split("") == [""] && split("é,ü") == ["é", "ü"])
        // A run inside a longer buffer, starting and ending inside it.
        let long = String(repeating: "ab,", count: 20) + "end"
        let pieces = Array(long.utf8).withUnsafeBufferPointer { split(UnsafeBufferPointer(rebasing: $0[1..<($0.count - 1)])) }
        #expect(pieces == ["b"] + Array(repeating: "ab", count: 19) + ["en"])
        #expect(ASCII.occurrences(of: UInt8(ascii: ","), in: long.utf8) == 20 && ASCII.occurrences(of: UInt8(ascii: ","), in: "".utf8) == 0)
    }

    @Test("decimal digits written without a String, two at a time: every value to 100,000, around every power of ten, at the edges of Int")
    func decimalDigits() {
        var powers: [Int] = []
        var power = 1
        while power <= Int.max / 10 { power *= 10; powers += [power - 1, power, power + 1, -power + 1, -power, -power - 1] }
        var wrong: [Int] = []
        for value in Array(-1_000...100_000) + powers + [Int.max, Int.min, Int.min + 1] {
            var bytes: [UInt8] = [UInt8(ascii: "x")]
            ASCII.withDecimalDigits(of: value) { bytes.append(contentsOf: $0) }
            if String(decoding: bytes, as: UTF8.self) != "x\(value)" { wrong.append(value) }
        }
        #expect(wrong.count == 0, "first wrong: \(wrong.first.map(String.init) ?? "")")
        #expect((0...99).map { value in withUnsafeBytes(of: ASCII.digitPair(value)) { String(decoding: $0, as: UTF8.self) } } == (0...99).map { $0 < 10 ? "0\($0)" : "\($0)" })
    }

    @Test("trimming drops spaces and tabs only, at both ends")
    func trimming() {
        #expect(" \t a b \t".trimmingSpacesAndTabs() == "a b")
        #expect("   ".trimmingSpacesAndTabs() == "" && "".trimmingSpacesAndTabs() == "")
        #expect("\na\n".trimmingSpacesAndTabs() == "\na\n")
        #expect("MiXeD-Ä".lowercasedASCII() == "mixed-Ä")
        // Short results are built inline, long ones on the heap: both kinds, and nothing to do.
        #expect("Host".lowercasedASCII() == "host" && "".lowercasedASCII() == "")
        #expect("X-Forwarded-For-Original-Client".lowercasedASCII() == "x-forwarded-for-original-client")
        #expect("already-lowercase".lowercasedASCII() == "already-lowercase")
    }

    @Test("FNV-1a 64 matches the published test vectors")
    func fnvVectors() {
        #expect(FNV1a.hash("".utf8).hex == "cbf29ce484222325")
        #expect(FNV1a.hash("a".utf8).hex == "af63dc4c8601ec8c")
        #expect(FNV1a.hash("foobar".utf8).hex == "85944171f73967e8")
        var split = FNV1a()
        split.add("foo".utf8)
        split.add("bar".utf8)
        #expect(split == FNV1a.hash("foobar".utf8))
        // Text stored on the heap is hashed over its storage; the same bytes from an array agree.
        let long = String(repeating: "rating-", count: 10)
        #expect(FNV1a.hash(long.utf8) == FNV1a.hash(Array(long.utf8)) && FNV1a.hash(long.utf8) == FNV1a.hash(AnySequence(long.utf8)))
    }

    @Test("base64url round-trips every length and refuses what no encoder writes")
    func base64url() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
        #expect(Base64URL.encode(Array("hello?>".utf8)) == "aGVsbG8_Pg")
        #expect(Base64URL.decode("aGVsbG8_Pg==") == nil && Base64URL.decode("a") == nil && Base64URL.decode("aGVsbG8/Pg") == nil)
        #expect(Base64URL.decode("aGVsbG8=") == nil && Base64URL.decode("aGVsbG8") == Array("hello".utf8) && Base64URL.decode("aGVsbG9") == nil)
        #expect(Base64URL.decode("QR") == nil, "leftover bits must be zero")
    }
}

@Suite("SipHash-2-4, 128-bit")
struct SipHashTests {
    private let key = Array(UInt8(0)...UInt8(15))

    @Test("matches the reference implementation's first test vectors")
    func referenceVectors() {
        // vectors_sip128 of the reference implementation (github.com/veorq/SipHash): key 00..0f,
        // messages 00 01 … of lengths 0, 1, 2, 4 and 15.
        #expect(ASCII.hex(SipHash.mac128([], key: key)) == "a3817f04ba25a8e66df67214c7550293")
        #expect(ASCII.hex(SipHash.mac128([0], key: key)) == "da87c1d86b99af44347659119b22fc45")
        #expect(ASCII.hex(SipHash.mac128([0, 1], key: key)) == "8177228da4a45dc7fca38bdef60affe4")
        #expect(ASCII.hex(SipHash.mac128([0, 1, 2, 3], key: key)) == "f88164c12d9c8faf7d0f6e7c7bcd5579")
        #expect(ASCII.hex(SipHash.mac128(Array(0...14), key: key)) == "5493e99933b0a8117e08ec0f97cfc3d9")
    }

    @Test("any change to the message or the key changes the tag")
    func sensitivity() {
        let tag = SipHash.mac128(Array("cursor".utf8), key: key)
        #expect(SipHash.mac128(Array("cursos".utf8), key: key) != tag)
        #expect(SipHash.mac128(Array("cursor".utf8), key: Array(1...16)) != tag)
        #expect(tag.count == 16)
    }
}

@Suite("SipHash, 64-bit")
struct SipHash64Tests {
    private let key = SipHash.Key(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908)

    private func hash(_ length: Int, _ variant: (UnsafeRawBufferPointer, SipHash.Key) -> UInt64) -> UInt64 {
        Array(UInt8(0)..<UInt8(length)).withUnsafeBytes { variant($0, key) }
    }

    @Test("SipHash-1-3 and SipHash-2-4 match the published vectors, whole words and leftover bytes alike")
    func referenceVectors() {
        // Key 00..0f, messages 00 01 … of each length: SipHash-1-3 as in the siphasher crate's and
        // Swift's own test vectors, SipHash-2-4 as in the reference implementation's vectors_sip64.
        for (length, expected) in [(0, 0xabac_0158_050f_c4dc), (1, 0xc9f4_9bf3_7d57_ca93), (7, 0xd392_7d98_9bb1_1140),
                                   (8, 0x3690_9511_8d29_9a8e), (9, 0x25a4_8eb3_6c06_3de4)] as [(Int, UInt64)] {
            #expect(hash(length, SipHash.hash13) == expected, "SipHash-1-3 of \(length) bytes")
        }
        for (length, expected) in [(0, 0x726f_db47_dd0e_0e31), (1, 0x74f8_39c5_93dc_67fd), (15, 0xa129_ca61_49be_45e5)] as [(Int, UInt64)] {
            #expect(hash(length, SipHash.hash24) == expected, "SipHash-2-4 of \(length) bytes")
        }
    }
}

extension ASCII {
    fileprivate static func hex(_ bytes: [UInt8]) -> String { bytes.map { hex(UInt64($0), width: 2) }.joined() }
}
