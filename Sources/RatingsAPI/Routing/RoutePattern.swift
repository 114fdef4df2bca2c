import HTTP1

/// The names a path parameter may have: an endpoint asks for one of these, so a misspelt name
/// does not compile, and a pattern naming anything else stops the API at start-up.
enum PathParameter: String, CaseIterable, Sendable {
    case itemId, raterId, voterId, flaggerId
}

/// A path pattern such as `/v1/items/{itemId}`: literal segments and named parameters. The
/// pattern's text is also the metrics label, so labels never carry raw paths. A class, since
/// every request's context holds its route's pattern: one reference, not a copy of its parts.
final class RoutePattern: Sendable, CustomStringConvertible {
    let description: String
    /// Each segment's literal as UTF-8 bytes, nil for a parameter: what a request's path is
    /// compared with (`RequestTarget.pathMatches`).
    let template: [[UInt8]?]
    /// The parameters, in path order.
    let parameters: [PathParameter]
    /// Where each of them sits in the path.
    private let parameterPositions: [Int]

    /// Reads `/a/{name}/b`: a segment in braces is a parameter (a `PathParameter`), anything else
    /// a literal. The route table is made when the API starts, so a bad pattern stops it there.
    init(_ text: String) {
        description = text
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let parameters = segments.enumerated().compactMap { position, segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? (name: String(segment.dropFirst().dropLast()), position: position) : nil
        }
        template = segments.enumerated().map { position, segment in
            parameters.contains { $0.position == position } ? nil : Array(segment.utf8)
        }
        self.parameters = parameters.map { parameter in
            guard let name = PathParameter(rawValue: parameter.name) else {
                preconditionFailure("route \(text) names the parameter \(parameter.name), which is not a PathParameter")
            }
            return name
        }
        parameterPositions = parameters.map(\.position)
    }

    /// Whether `target`'s path has this pattern's length and literals. The parameters' values
    /// are read from the path when asked for, so matching makes no text.
    func matches(_ target: RequestTarget) -> Bool { target.pathMatches(template) }

    /// Where the parameter `name` sits in a path this pattern matches; nil when it has none.
    func position(of name: PathParameter) -> Int? {
        parameters.firstIndex(of: name).map { parameterPositions[$0] }
    }
}
