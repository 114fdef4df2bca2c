import ASCIIKit
import RatingsCore

/// The rows of `COPY` in PostgreSQL's text format (postgresql.org/docs/15/sql-copy.html, "Text
/// Format"): one line per row, columns separated by tabs, `\N` for NULL, and backslash escapes
/// for the bytes that would break a line or a column.
enum CopyTextFormat {
    /// How a column's text turns into a copied value.
    enum Kind: Sendable, Equatable {
        case integer
        /// `t` or `f`, copied as 1 or 0 (SQLite's booleans); PostgreSQL reads 1 and 0 back.
        case boolean
        case text

        /// The kind of a column of `information_schema.columns`' `data_type`.
        init(dataType: String) {
            switch dataType {
            case "bigint", "integer", "smallint": self = .integer
            case "boolean": self = .boolean
            default: self = .text
            }
        }
    }

    /// Appends `row` as one line.
    static func append(_ row: CopiedRow, to line: inout [UInt8]) {
        for (index, value) in row.enumerated() {
            if index > 0 { line.append(UInt8(ascii: "\t")) }
            switch value {
            case .null:
                line.append(UInt8(ascii: "\\"))
                line.append(UInt8(ascii: "N"))
            case .integer(let integer):
                line.append(contentsOf: String(integer).utf8)
            case .text(let text):
                for byte in text.utf8 {
                    switch byte {
                    case UInt8(ascii: "\\"): line.append(UInt8(ascii: "\\")); line.append(UInt8(ascii: "\\"))
                    case UInt8(ascii: "\n"): line.append(UInt8(ascii: "\\")); line.append(UInt8(ascii: "n"))
                    case UInt8(ascii: "\r"): line.append(UInt8(ascii: "\\")); line.append(UInt8(ascii: "r"))
                    case UInt8(ascii: "\t"): line.append(UInt8(ascii: "\\")); line.append(UInt8(ascii: "t"))
                    default: line.append(byte)
                    }
                }
            }
        }
        line.append(UInt8(ascii: "\n"))
    }

    /// The row one line holds, its columns of `kinds`; nil when the line does not have that many
    /// columns or a value does not read as its kind.
    static func row(_ line: UnsafeBufferPointer<UInt8>, kinds: [Kind]) -> CopiedRow? {
        var end = line.count
        if end > 0, line[end - 1] == UInt8(ascii: "\n") { end -= 1 }
        var row = CopiedRow()
        row.reserveCapacity(kinds.count)
        var start = 0
        for (index, kind) in kinds.enumerated() {
            var stop = start
            while stop < end, line[stop] != UInt8(ascii: "\t") { stop += 1 }
            guard stop < end || index == kinds.count - 1 else { return nil }
            guard let value = value(UnsafeBufferPointer(rebasing: line[start..<stop]), kind) else { return nil }
            row.append(value)
            start = stop + 1
        }
        return start == end + 1 ? row : nil
    }

    private static func value(_ field: UnsafeBufferPointer<UInt8>, _ kind: Kind) -> CopiedValue? {
        if field.count == 2, field[0] == UInt8(ascii: "\\"), field[1] == UInt8(ascii: "N") { return .null }
        switch kind {
        case .integer:
            return Int(String(decoding: field, as: UTF8.self)).map(CopiedValue.integer)
        case .boolean:
            guard field.count == 1 else { return nil }
            return field[0] == UInt8(ascii: "t") ? .integer(1) : field[0] == UInt8(ascii: "f") ? .integer(0) : nil
        case .text:
            guard field.contains(UInt8(ascii: "\\")) else { return .text(String(decoding: field, as: UTF8.self)) }
            return unescaped(field).map { .text(String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// The bytes a field with backslash escapes stands for.
    private static func unescaped(_ field: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = 0
        while index < field.count {
            let byte = field[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else { bytes.append(byte); continue }
            guard index < field.count else { return nil }
            let escaped = field[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "b"): bytes.append(8)
            case UInt8(ascii: "f"): bytes.append(12)
            case UInt8(ascii: "n"): bytes.append(10)
            case UInt8(ascii: "r"): bytes.append(13)
            case UInt8(ascii: "t"): bytes.append(9)
            case UInt8(ascii: "v"): bytes.append(11)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = Int(escaped - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < field.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(field[index]) {
                    value = value * 8 + Int(field[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
            case UInt8(ascii: "x"):
                var value = 0, digits = 0
                while digits < 2, index < field.count, let digit = ASCII.hexValue(field[index]) {
                    value = value * 16 + digit
                    index += 1
                    digits += 1
                }
                guard digits > 0 else { return nil }
                bytes.append(UInt8(value))
            default: bytes.append(escaped)
            }
        }
        return bytes
    }
}
