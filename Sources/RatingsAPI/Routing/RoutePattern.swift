/// A path pattern such as `/v1/items/{itemId}`: literal segments and named parameters. The
/// pattern's text is also the metrics label, so labels never carry raw paths. A class: every
/// request's context holds its route's pattern, and a reference is one retain where a copy of
/// the value was four (its text and three arrays).
final class RoutePattern: Sendable, CustomStringConvertible {
    /// One segment of the pattern.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let description: String
    let segments: [Segment]
    /// The parameter names, in path order.
    let parameterNames: [String]
    /// Where each of them sits in the path.
    private let parameterPositions: [Int]

    /// Reads `/a/{name}/b`: a segment in braces is a parameter, anything else a literal.
    init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? .parameter(String(segment.dropFirst().dropLast())) : .literal(String(segment))
        }
        let parameters = segments.enumerated().compactMap { position, segment in
            if case .parameter(let name) = segment { (name: name, position: position) } else { nil }
        }
        parameterNames = parameters.map(\.name)
        parameterPositions = parameters.map(\.position)
    }

    /// Whether `path` (percent-decoded segments) has this pattern's length and literals. The
    /// parameters' values are read from the path itself when asked for, so matching allocates nothing.
    func matches(_ path: [String]) -> Bool {
        guard path.count == segments.count else { return false }
        for (segment, actual) in zip(segments, path) {
            if case .literal(let literal) = segment, literal != actual { return false }
        }
        return true
    }

    /// The value of the parameter `name` in a `path` this pattern matches; nil when it has none.
    func value(of name: String, in path: [String]) -> String? {
        parameterNames.firstIndex(of: name).map { path[parameterPositions[$0]] }
    }
}
