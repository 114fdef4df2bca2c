import Locking
import RatingsCore

/// Request counts, latency histograms and rating counters, rendered as Prometheus text
/// exposition format 0.0.4. Routes are labelled by their pattern (from the route table), never by
/// raw paths, and methods outside the standard set as `other`, so clients cannot grow the label set.
final class APIMetrics: Sendable {
    /// Latency bucket bounds in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    /// Methods labelled by name; anything else is `other`.
    static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]
    /// The label of requests no route matched.
    static let unmatched = "unmatched"

    /// How many requests of one route and method were answered with `status`.
    private struct StatusCount {
        let status: Int
        var count: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: APIMetrics.buckets.count)
        var sum = 0.0
        var count = 0
    }

    private struct State {
        /// The rows of `ratings_http_requests_total`, per route and method (`row(route:method:)`),
        /// each a short list of the statuses seen: a look through a few entries, where a
        /// dictionary keyed by all three hashed the key on every request.
        var requests: [[StatusCount]]
        var durations: [Histogram]
        var written = 0
        var cleared = 0
        var reviewsWritten = 0
        var reviewsRemoved = 0
        var helpfulVotes = 0
        var unhelpfulVotes = 0
        /// By `FlagReason.allCases` order.
        var flags = [Int](repeating: 0, count: FlagReason.allCases.count)
        var published = 0
        var rejected = 0
    }

    /// Route labels by route index; the last one is `unmatched`.
    private let routeLabels: [String]
    private let state: Locked<State>

    /// Metrics for the routes whose patterns are `routePatterns`, in route-table order.
    init(routePatterns: [String]) {
        routeLabels = routePatterns + [APIMetrics.unmatched]
        state = Locked(State(requests: Array(repeating: [], count: routeLabels.count * APIMetrics.methodLabelCount),
                             durations: [Histogram](repeating: Histogram(), count: routeLabels.count)))
    }

    /// Method labels: the standard methods, then `other`.
    private static let methodLabelCount = methods.count + 1

    private static func row(route: Int, method: Int) -> Int { route * methodLabelCount + method }

    /// Counts one answered request; `route` is the route-table index, nil when none matched.
    func record(route: Int?, method: String, status: Int, seconds: Double) {
        let routeIndex = route ?? routeLabels.count - 1
        let row = Self.row(route: routeIndex, method: APIMetrics.methods.firstIndex(of: method) ?? APIMetrics.methods.count)
        let bucket = APIMetrics.buckets.firstIndex { seconds <= $0 }
        state.withLock { state in
            if let index = state.requests[row].firstIndex(where: { $0.status == status }) {
                state.requests[row][index].count += 1
            } else {
                state.requests[row].append(StatusCount(status: status, count: 1))
            }
            if let bucket { state.durations[routeIndex].counts[bucket] += 1 }
            state.durations[routeIndex].sum += seconds
            state.durations[routeIndex].count += 1
        }
    }

    /// Counts ratings created or replaced.
    func ratingsWritten(_ count: Int = 1) { state.withLock { $0.written += count } }
    /// Counts ratings removed.
    func ratingsCleared(_ count: Int = 1) { state.withLock { $0.cleared += count } }

    /// Counts reviews created or replaced.
    func reviewsWritten(_ count: Int = 1) { state.withLock { $0.reviewsWritten += count } }
    /// Counts reviews removed (by their author, with their rating, or by erasure).
    func reviewsRemoved(_ count: Int = 1) { state.withLock { $0.reviewsRemoved += count } }
    /// Counts a helpfulness vote cast or replaced.
    func reviewVoted(helpful: Bool) { state.withLock { helpful ? ($0.helpfulVotes += 1) : ($0.unhelpfulVotes += 1) } }

    /// Counts a flag placed or replaced.
    func reviewFlagged(_ reason: FlagReason) {
        let index = FlagReason.allCases.firstIndex(of: reason) ?? 0
        state.withLock { $0.flags[index] += 1 }
    }

    /// Counts a moderator's decision.
    func moderationDecided(_ status: ReviewStatus) {
        state.withLock { status == .published ? ($0.published += 1) : ($0.rejected += 1) }
    }

    /// The exposition text; `pendingReviews` nil leaves out the queue's gauge (the store did not
    /// answer), rather than reporting a number it does not know.
    func render(openConnections: Int, pendingReviews: Int?) -> String {
        let snapshot = state.withLock { $0 }
        let methodLabel = { (index: Int) in index < APIMetrics.methods.count ? APIMetrics.methods[index] : "other" }
        var out = """
            # HELP ratings_http_requests_total HTTP requests answered, by route pattern, method and status.
            # TYPE ratings_http_requests_total counter

            """
        let rows = snapshot.requests.enumerated().flatMap { row, counts in
            counts.map { (route: routeLabels[row / Self.methodLabelCount], method: methodLabel(row % Self.methodLabelCount), status: $0.status, count: $0.count) }
        }
        for row in rows.sorted(by: { ($0.route, $0.method, $0.status) < ($1.route, $1.method, $1.status) }) {
            out += "ratings_http_requests_total{route=\"\(row.route)\",method=\"\(row.method)\",status=\"\(row.status)\"} \(row.count)\n"
        }
        out += """
            # HELP ratings_http_request_duration_seconds Time from a complete request to its response, by route pattern.
            # TYPE ratings_http_request_duration_seconds histogram

            """
        for (index, histogram) in snapshot.durations.enumerated().sorted(by: { routeLabels[$0.offset] < routeLabels[$1.offset] })
        where histogram.count > 0 {
            let route = routeLabels[index]
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
            # HELP ratings_reviews_written_total Reviews created or replaced.
            # TYPE ratings_reviews_written_total counter
            ratings_reviews_written_total \(snapshot.reviewsWritten)
            # HELP ratings_reviews_removed_total Reviews removed: by their author, with their rating, or by erasure.
            # TYPE ratings_reviews_removed_total counter
            ratings_reviews_removed_total \(snapshot.reviewsRemoved)
            # HELP ratings_review_votes_total Helpfulness votes cast or replaced (withdrawals are not counted), by vote.
            # TYPE ratings_review_votes_total counter
            ratings_review_votes_total{helpful="true"} \(snapshot.helpfulVotes)
            ratings_review_votes_total{helpful="false"} \(snapshot.unhelpfulVotes)
            # HELP ratings_review_flags_total Flags placed or replaced (withdrawals are not counted), by reason.
            # TYPE ratings_review_flags_total counter

            """
        for (index, reason) in FlagReason.allCases.enumerated() {
            out += "ratings_review_flags_total{reason=\"\(reason.rawValue)\"} \(snapshot.flags[index])\n"
        }
        out += """
            # HELP ratings_moderation_decisions_total Moderators' decisions, by the status decided (automatic changes are not counted).
            # TYPE ratings_moderation_decisions_total counter
            ratings_moderation_decisions_total{status="published"} \(snapshot.published)
            ratings_moderation_decisions_total{status="rejected"} \(snapshot.rejected)

            """
        if let pendingReviews {
            out += """
                # HELP ratings_moderation_queue Reviews pending a moderator's decision, over every item and every process.
                # TYPE ratings_moderation_queue gauge
                ratings_moderation_queue \(pendingReviews)

                """
        }
        return out
    }

    /// The webhooks' series: attempts this process made per endpoint and outcome (every endpoint
    /// in force, zeros included), and the pending rows per endpoint when the store answered.
    static func webhookLines(_ webhooks: any WebhookMonitor, pending: [String: Int]?) -> String {
        let ids = webhooks.endpoints.map(\.id).sorted()
        let attempts = webhooks.attempts()
        var out = """
            # HELP ratings_webhook_deliveries_total Webhook delivery attempts by this process, by endpoint and outcome.
            # TYPE ratings_webhook_deliveries_total counter

            """
        for id in ids {
            let counts = attempts[id] ?? AttemptCounts()
            for (outcome, count) in [("delivered", counts.delivered), ("retried", counts.retried), ("failed", counts.failed)] {
                out += "ratings_webhook_deliveries_total{endpoint=\"\(id)\",outcome=\"\(outcome)\"} \(count)\n"
            }
        }
        if let pending {
            out += """
                # HELP ratings_webhook_pending Webhook deliveries waiting in the outbox, over every process, by endpoint.
                # TYPE ratings_webhook_pending gauge

                """
            for id in ids { out += "ratings_webhook_pending{endpoint=\"\(id)\"} \(pending[id] ?? 0)\n" }
        }
        return out
    }
}
