import HTTP1

/// A path pattern such as `/v1/items/{itemId}`: literal segments and named parameters. The
/// pattern's text is also the metrics label, so labels never carry raw paths. A class: every
/// request's context holds its route's pattern, and a reference is one retain where a copy of
/// the value was four (its text and three arrays).
final class RoutePattern: Sendable, CustomStringConvertible {
    let description: String
    /// Each segment's literal as UTF-8 bytes, nil for a parameter: what a request's path is
    /// compared with (`RequestTarget.pathMatches`).
    let template: [[UInt8]?]
    /// The parameter names, in path order.
    let parameterNames: [String]
    /// Where each of them sits in the path.
    private let parameterPositions: [Int]

    /// Reads `/a/{name}/b`: a segment in braces is a parameter, anything else a literal.
    init(_ text: String) {
        description = text
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let parameters = segments.enumerated().compactMap { position, segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? (name: String(segment.dropFirst().dropLast()), position: position) : nil
        }
        template = segments.enumerated().map { position, segment in
            parameters.contains { $0.position == position } ? nil : Array(segment.utf8)
        }
        parameterNames = parameters.map(\.name)
        parameterPositions = parameters.map(\.position)
    }

    /// Whether `target`'s path has this pattern's length and literals. The parameters' values
    /// are read from the path when asked for, so matching makes no text.
    func matches(_ target: RequestTarget) -> Bool { target.pathMatches(template) }

    /// Where the parameter `name` sits in a path this pattern matches; nil when it has none.
    func position(of name: String) -> Int? {
        parameterNames.firstIndex(of: name).map { parameterPositions[$0] }
    }
}
