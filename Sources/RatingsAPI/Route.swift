import HTTP1

/// Every resource the API serves, with its path pattern (the metrics label) and methods.
enum Route: Sendable, Equatable {
    case rating(item: String, rater: String)
    case item(String)
    case items
    case display
    case health
    case readiness
    case metrics
    case openAPI
    /// No route: the label used for metrics of unknown paths.
    case unmatched

    /// Every pattern, indexed by `index`.
    static let patterns = ["/v1/items/{itemId}/ratings/{raterId}", "/v1/items/{itemId}", "/v1/items", "/v1/display",
                           "/healthz", "/readyz", "/metrics", "/openapi.yaml", "unmatched"]

    /// The route's position in `patterns`, for metrics kept in arrays.
    var index: Int {
        switch self {
        case .rating: return 0
        case .item: return 1
        case .items: return 2
        case .display: return 3
        case .health: return 4
        case .readiness: return 5
        case .metrics: return 6
        case .openAPI: return 7
        case .unmatched: return 8
        }
    }

    /// The pattern, never the raw path, so metric labels stay few.
    var pattern: String { Route.patterns[index] }

    /// The methods the route answers, as sent in `Allow`.
    var allow: String {
        switch self {
        case .rating: return "GET, HEAD, PUT, DELETE"
        case .item: return "GET, HEAD, PUT"
        default: return "GET, HEAD"
        }
    }

    /// Matches a request path. Segments are split before percent-decoding, so an encoded `/`
    /// stays inside its segment (and then fails identifier validation).
    static func match(_ target: RequestTarget) -> Route? {
        guard let segments = target.pathSegments else { return nil }
        switch segments.count {
        case 1:
            switch segments[0] {
            case "healthz": return .health
            case "readyz": return .readiness
            case "metrics": return .metrics
            case "openapi.yaml": return .openAPI
            default: return nil
            }
        case 2 where segments[0] == "v1":
            switch segments[1] {
            case "items": return .items
            case "display": return .display
            default: return nil
            }
        case 3 where segments[0] == "v1" && segments[1] == "items":
            return .item(segments[2])
        case 5 where segments[0] == "v1" && segments[1] == "items" && segments[3] == "ratings":
            return .rating(item: segments[2], rater: segments[4])
        default:
            return nil
        }
    }
}
