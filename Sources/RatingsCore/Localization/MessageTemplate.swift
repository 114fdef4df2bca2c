/// A translated sentence with `{value}` and `{max}` placeholders, split once when loaded.
struct MessageTemplate: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case text(String)
        case value
        case max
    }

    let pieces: [Piece]

    /// Refuses any `{…}` other than the two known placeholders, so a typo cannot reach users.
    init(_ source: String) throws(LanguageFileError.Problem) {
        var pieces: [Piece] = [], rest = Substring(source)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .init("\"\(source)\" has a \"{\" that is never closed")
            }
            switch rest[rest.index(after: open)..<close] {
            case "value": pieces.append(.value)
            case "max": pieces.append(.max)
            case let name: throw .init("\"\(source)\" has the unknown placeholder {\(name)}; use {value} and {max}")
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        guard pieces.contains(.value) else { throw .init("\"\(source)\" never says {value}") }
        self.pieces = pieces
    }

    func render(value: String, max: String) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .value: out += value
            case .max: out += max
            }
        }
        return out
    }
}
