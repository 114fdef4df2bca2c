@testable import PostgresStore
import RatingsCore
import Testing

@Suite("COPY's text format: rows written as PostgreSQL reads them, and read as it writes them")
struct CopyTextFormatTests {
    private func line(_ row: CopiedRow) -> [UInt8] {
        var bytes: [UInt8] = []
        CopyTextFormat.append(row, to: &bytes)
        return bytes
    }

    private func read(_ bytes: [UInt8], _ kinds: [CopyTextFormat.Kind]) -> CopiedRow? {
        bytes.withUnsafeBufferPointer { CopyTextFormat.row($0, kinds: kinds) }
    }

    @Test("tabs, line breaks, carriage returns and backslashes are escaped; NULL is \\N; text round-trips")
    func escapes() {
        let row: CopiedRow = [.text("a\tb\nc\rd\\e \\N café 日本"), .null, .integer(-42), .text(""), .text("\\N")]
        #expect(line(row) == Array("a\\tb\\nc\\rd\\\\e \\\\N café 日本\t\\N\t-42\t\t\\\\N\n".utf8))
        #expect(read(line(row), [.text, .text, .integer, .text, .text]) == row)
    }

    @Test("PostgreSQL's own escapes read back: \\b \\f \\v, octal and hexadecimal bytes; booleans as 1 and 0")
    func serverEscapes() {
        #expect(read(Array("x\\by\\fz\\v\\101\\x42\\x4a\tt\tf\n".utf8), [.text, .boolean, .boolean])
                == [.text("x\u{8}y\u{C}z\u{B}ABJ"), .integer(1), .integer(0)])
    }

    @Test("a line with too few or too many columns, or a value not of its kind, is refused")
    func refusals() {
        #expect(read(Array("1\t2\n".utf8), [.integer, .integer, .integer]) == nil)
        #expect(read(Array("1\t2\t3\n".utf8), [.integer, .integer]) == nil)
        #expect(read(Array("one\n".utf8), [.integer]) == nil)
        #expect(read(Array("yes\n".utf8), [.boolean]) == nil)
        #expect(read(Array("bad\\\n".utf8), [.text]) == nil)
        #expect(read(Array("\n".utf8), [.text]) == [.text("")])
    }
}
