import Synchronization

/// Request counts, latency histograms and rating counters, rendered as Prometheus text
/// exposition format 0.0.4.
final class APIMetrics: Sendable {
    /// Latency bucket bounds in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    /// Methods labelled by name; anything else is `other` so clients cannot grow the label set.
    static let standardMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: APIMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var durations: [String: Histogram] = [:]
        var written = 0
        var cleared = 0
    }

    private let state = Mutex(State())

    /// Counts one answered request.
    func record(route: String, method: String, status: Int, seconds: Double) {
        let method = APIMetrics.standardMethods.contains(method) ? method : "other"
        let bucket = APIMetrics.buckets.firstIndex { seconds <= $0 }
        state.withLock { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = state.durations[route] ?? Histogram()
            if let bucket { histogram.counts[bucket] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.durations[route] = histogram
        }
    }

    func ratingWritten() { state.withLock { $0.written += 1 } }
    func ratingCleared() { state.withLock { $0.cleared += 1 } }

    /// The exposition text.
    func render(openConnections: Int) -> String {
        let snapshot = state.withLock { $0 }
        var out = """
            # HELP ratings_http_requests_total HTTP requests answered, by route pattern, method and status.
            # TYPE ratings_http_requests_total counter

            """
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "ratings_http_requests_total{route=\"\(key.route)\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        out += """
            # HELP ratings_http_request_duration_seconds Time from a complete request to its response, by route pattern.
            # TYPE ratings_http_request_duration_seconds histogram

            """
        for (route, histogram) in snapshot.durations.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in APIMetrics.buckets.enumerated() {
                cumulative += histogram.counts[index]
                out += "ratings_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "ratings_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(histogram.count)\n"
            out += "ratings_http_request_duration_seconds_sum{route=\"\(route)\"} \(histogram.sum)\n"
            out += "ratings_http_request_duration_seconds_count{route=\"\(route)\"} \(histogram.count)\n"
        }
        out += """
            # HELP ratings_open_connections Client connections open now.
            # TYPE ratings_open_connections gauge
            ratings_open_connections \(openConnections)
            # HELP ratings_ratings_written_total Ratings created or replaced.
            # TYPE ratings_ratings_written_total counter
            ratings_ratings_written_total \(snapshot.written)
            # HELP ratings_ratings_cleared_total Ratings removed (clears of a missing rating are not counted).
            # TYPE ratings_ratings_cleared_total counter
            ratings_ratings_cleared_total \(snapshot.cleared)

            """
        return out
    }
}
