import Locking

/// Request counts, latency histograms and rating counters, rendered as Prometheus text
/// exposition format 0.0.4. Kept in arrays indexed by route and method, so recording a request
/// hashes no strings.
final class APIMetrics: Sendable {
    /// Latency bucket bounds in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    /// Methods labelled by name; anything else is `other` so clients cannot grow the label set.
    static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "other"]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: APIMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        /// Keyed by (route index, method index, status) packed into one integer.
        var requests: [Int: Int] = [:]
        var durations = [Histogram](repeating: Histogram(), count: Route.patterns.count)
        var written = 0
        var cleared = 0
    }

    private let state = Locked(State())

    /// Counts one answered request.
    func record(route: Route, method: String, status: Int, seconds: Double) {
        let methodIndex = APIMetrics.methods.firstIndex(of: method) ?? APIMetrics.methods.count - 1
        let key = (route.index * APIMetrics.methods.count + methodIndex) * 1000 + status
        let bucket = APIMetrics.buckets.firstIndex { seconds <= $0 }
        state.withLock { state in
            state.requests[key, default: 0] += 1
            if let bucket { state.durations[route.index].counts[bucket] += 1 }
            state.durations[route.index].sum += seconds
            state.durations[route.index].count += 1
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
        let rows = snapshot.requests.map { key, count -> (route: String, method: String, status: Int, count: Int) in
            let status = key % 1000, pair = key / 1000
            return (Route.patterns[pair / APIMetrics.methods.count], APIMetrics.methods[pair % APIMetrics.methods.count], status, count)
        }
        for row in rows.sorted(by: { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }) {
            out += "ratings_http_requests_total{route=\"\(row.route)\",method=\"\(row.method)\",status=\"\(row.status)\"} \(row.count)\n"
        }
        out += """
            # HELP ratings_http_request_duration_seconds Time from a complete request to its response, by route pattern.
            # TYPE ratings_http_request_duration_seconds histogram

            """
        for (index, histogram) in snapshot.durations.enumerated().sorted(by: { Route.patterns[$0.offset] < Route.patterns[$1.offset] })
        where histogram.count > 0 {
            let route = Route.patterns[index]
            var cumulative = 0
            for (bucket, bound) in APIMetrics.buckets.enumerated() {
                cumulative += histogram.counts[bucket]
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
