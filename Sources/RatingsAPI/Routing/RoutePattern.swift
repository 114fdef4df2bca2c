/// A path pattern such as `/v1/items/{itemId}`: literal segments and named parameters. The
/// pattern's text is also the metrics label, so labels never carry raw paths.
struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    /// One segment of the pattern.
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let description: String
    let segments: [Segment]
    /// The parameter names, in path order.
    let parameterNames: [String]

    /// Reads `/a/{name}/b`: a segment in braces is a parameter, anything else a literal.
    init(_ text: String) {
        description = text
        segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? .parameter(String(segment.dropFirst().dropLast())) : .literal(String(segment))
        }
        parameterNames = segments.compactMap { if case .parameter(let name) = $0 { return name } else { return nil } }
    }

    /// The parameters' values when `path` (percent-decoded segments) matches, in path order.
    func match(_ path: [String]) -> [String]? {
        guard path.count == segments.count else { return nil }
        // Literals first, so a pattern that fails late allocates nothing for its values.
        for (segment, actual) in zip(segments, path) {
            if case .literal(let literal) = segment, literal != actual { return nil }
        }
        var values: [String] = []
        values.reserveCapacity(parameterNames.count)
        for (segment, actual) in zip(segments, path) {
            if case .parameter = segment { values.append(actual) }
        }
        return values
    }
}
