import Dispatch
import Foundation
import Glibc
import Locking
import RatingsCore
import TestSupport
import Testing

/// Several `ratings serve` processes on one PostgreSQL database, each on its own port.
private final class Replicas: Sendable {
    let servers: [RatingsServer]

    init(uri: String, count: Int, defaultMaxRatings: [Int]? = nil, directory: TemporaryDirectory, arguments: [String] = []) throws {
        var servers: [RatingsServer] = []
        for index in 0..<count {
            let scale = defaultMaxRatings?[index] ?? 5
            do {
                servers.append(try RatingsServer(["--database", uri, "--write-rate", "0", "--database-pool", "4",
                                                  "--default-max-rating", String(scale)] + arguments, directory: directory.path))
            } catch {
                servers.forEach { $0.stop() }
                throw error
            }
        }
        self.servers = servers
    }

    var ports: [Int] { servers.map(\.port) }

    func stop() { servers.forEach { $0.stop() } }

    /// One request to replica `index` on a fresh connection.
    func request(_ index: Int, _ method: String, _ path: String, json: String? = nil) throws -> RawHTTPClient.Response {
        try servers[index].request(method, path, json: json)
    }
}

/// Runs `count` blocks at once on plain threads and collects their results in order.
private func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = Locked<[Int: T]>([:])
    DispatchQueue.concurrentPerform(iterations: count) { index in
        let value = body(index)
        results.withLock { $0[index] = value }
    }
    return results.withLock { results in (0..<count).map { results[$0]! } }
}

@Suite("Three replicas on one PostgreSQL database give the same answers", .serialized)
struct ReplicaTests {
    @Test("writes through any replica are read by every other; concurrent writes are counted exactly; one rating per rater; one scale; one clear")
    func replicasAgree() throws {
        let directory = try TemporaryDirectory("ratings-replicas")
        defer { directory.remove() }
        let uri = try PostgresCluster.shared().freshDatabaseURI()
        let replicas = try Replicas(uri: uri, count: 3, defaultMaxRatings: [4, 5, 6], directory: directory)
        defer { replicas.stop() }

        // A write acknowledged by one replica is read by every other's next request, with the same ETag.
        #expect(try replicas.request(0, "PUT", "/v1/items/seen/ratings/u-1", json: #"{"stars": 3}"#).status == 201)
        let reads = try (1...2).map { try replicas.request($0, "GET", "/v1/items/seen") }
        #expect(reads.allSatisfy { object($0)["count"] as? Int == 1 })
        #expect(reads[0].header("etag") != nil && reads[0].header("etag") == reads[1].header("etag") && reads[0].body == reads[1].body)

        // 300 concurrent first ratings of one item, spread over the replicas, are all counted.
        let created = concurrently(300) { rater in
            (try? replicas.request(rater % 3, "PUT", "/v1/items/popular/ratings/r-\(rater)", json: "{\"stars\": \(rater % 4 + 1)}").status) ?? -1
        }
        #expect(created.allSatisfy { $0 == 201 }, "\(Set(created))")
        for index in 0..<3 {
            let summary = object(try replicas.request(index, "GET", "/v1/items/popular"))
            // The item's scale is the default of whichever replica rated it first (4, 5 or 6 stars).
            let distribution = summary["distribution"] as? [Int] ?? []
            #expect(summary["count"] as? Int == 300 && distribution.prefix(4) == [75, 75, 75, 75] && distribution.dropFirst(4).allSatisfy { $0 == 0 })
        }

        // One rater re-rating one item through every replica at once keeps one rating.
        let rerated = concurrently(60) { attempt in
            (try? replicas.request(attempt % 3, "PUT", "/v1/items/contested/ratings/same", json: "{\"stars\": \(attempt % 4 + 1)}").status) ?? -1
        }
        #expect(rerated.filter { $0 == 201 }.count == 1 && rerated.filter { $0 == 200 }.count == 59)
        let contested = object(try replicas.request(2, "GET", "/v1/items/contested"))
        let kept = object(try replicas.request(1, "GET", "/v1/items/contested/ratings/same"))["stars"] as? Int
        #expect(contested["count"] as? Int == 1 && contested["average"] as? Double == kept.map(Double.init))

        // Replicas with defaults 4, 5 and 6 race to rate a new item: its scale is fixed once, the same for all.
        let firsts = concurrently(30) { rater in
            (try? replicas.request(rater % 3, "PUT", "/v1/items/scaled/ratings/r-\(rater)", json: #"{"stars": 4}"#).status) ?? -1
        }
        #expect(firsts.allSatisfy { $0 == 201 })
        let scales = try (0..<3).map { object(try replicas.request($0, "GET", "/v1/items/scaled"))["maxRating"] as? Int }
        #expect(Set(scales).count == 1 && [4, 5, 6].contains(scales[0] ?? 0))

        // Two replicas clearing the same rating at once: cleared is true exactly once.
        for round in 0..<20 {
            #expect(try replicas.request(round % 3, "PUT", "/v1/items/clearing/ratings/r-\(round)", json: #"{"stars": 2}"#).status == 201)
            let cleared = concurrently(2) { side in
                object((try? replicas.request(side, "DELETE", "/v1/items/clearing/ratings/r-\(round)")) ?? RawHTTPClient.Response(status: 0, headers: [], body: []))["cleared"] as? Bool
            }
            #expect(cleared.filter { $0 == true }.count == 1 && cleared.filter { $0 == false }.count == 1, "round \(round): \(cleared)")
        }
        #expect(object(try replicas.request(0, "GET", "/v1/items/clearing"))["count"] as? Int == 0)
    }

    @Test("concurrent votes and edits of one review through three replicas: every vote counted once, the stored helpful key the computed one")
    func reviewsAcrossReplicas() throws {
        let directory = try TemporaryDirectory("ratings-replicas")
        defer { directory.remove() }
        let replicas = try Replicas(uri: try PostgresCluster.shared().freshDatabaseURI(), count: 3, directory: directory)
        defer { replicas.stop() }
        #expect(try replicas.request(0, "PUT", "/v1/items/soup/reviews/author", json: #"{"stars": 4, "body": "Broth."}"#).status == 201)
        #expect(try replicas.request(1, "PUT", "/v1/items/soup/reviews/other", json: #"{"stars": 2, "body": "Cold."}"#).status == 201)
        // 240 voters (every third says not helpful) and, among them, the author editing the text
        // and the stars, all at once through the three replicas.
        let statuses = concurrently(260) { index -> Int in
            let replica = index % 3
            if index >= 240 {
                let json = "{\"stars\": \(index % 5 + 1), \"body\": \"Edit \(index).\"}"
                return (try? replicas.request(replica, "PUT", "/v1/items/soup/reviews/author", json: json).status) ?? -1
            }
            let json = "{\"helpful\": \(index % 3 != 0)}"
            return (try? replicas.request(replica, "PUT", "/v1/items/soup/reviews/author/votes/v-\(index)", json: json).status) ?? -1
        }
        #expect(statuses.prefix(240).allSatisfy { $0 == 201 } && statuses.dropFirst(240).allSatisfy { $0 == 200 }, "\(Set(statuses))")
        for index in 0..<3 {
            let review = object(try replicas.request(index, "GET", "/v1/items/soup/reviews/author"))
            #expect((review["helpful"] as? [String: Int]) == ["up": 160, "down": 80])
            #expect((review["body"] as? String)?.hasPrefix("Edit ") == true)
        }
        let summary = object(try replicas.request(2, "GET", "/v1/items/soup"))
        #expect(summary["count"] as? Int == 2 && summary["reviewCount"] as? Int == 2)
        // The cursor after the first "helpful" page carries the stored key the list sorted by
        // (kind, then the key as 8 big-endian bytes): it is the key computed from 160 up, 80 down.
        let page = object(try replicas.request(1, "GET", "/v1/items/soup/reviews?sort=helpful&limit=1"))
        #expect((page["reviews"] as? [[String: Any]])?.first?["raterId"] as? String == "author")
        let cursor = try #require(page["nextCursor"] as? String)
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let bytes = try #require(Data(base64Encoded: base64))
        let stored = bytes.dropFirst().prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        #expect(stored == HelpfulScore(up: 160, down: 80).key)
    }

    @Test("flags past the threshold through three replicas at once: each review made pending exactly once, reviewCount moved once")
    func flagThresholdAcrossReplicas() throws {
        let directory = try TemporaryDirectory("ratings-replicas")
        defer { directory.remove() }
        let replicas = try Replicas(uri: try PostgresCluster.shared().freshDatabaseURI(), count: 3, directory: directory)
        defer { replicas.stop() }
        let authors = (0..<4).map { "author-\($0)" }
        for (index, author) in (authors + ["control"]).enumerated() {
            #expect(try replicas.request(index % 3, "PUT", "/v1/items/soup/reviews/\(author)", json: #"{"stars": 4, "body": "Broth."}"#).status == 201)
        }
        // Twelve flaggers on each of the four reviews, all at once, spread over the replicas.
        let statuses = concurrently(48) { index -> Int in
            let path = "/v1/items/soup/reviews/\(authors[index % 4])/flags/f-\(index)"
            return (try? replicas.request(index % 3, "PUT", path, json: #"{"reason": "spam"}"#).status) ?? -1
        }
        for (review, author) in authors.enumerated() {
            let answers = stride(from: review, to: 48, by: 4).map { statuses[$0] }
            // The threshold's three flags are taken; every later one finds the review pending, hidden from its flagger.
            #expect(answers.filter { $0 == 201 }.count == 3 && answers.filter { $0 == 404 }.count == 9, "\(author): \(answers)")
            for replica in 0..<3 {
                let record = object(try replicas.request(replica, "GET", "/v1/items/soup/reviews/\(author)/moderation"))
                let history = record["history"] as? [[String: Any]] ?? []
                #expect(record["status"] as? String == "pending" && history.count == 1 && history.first?["reason"] as? String == "flags")
                #expect((record["flags"] as? [String: Int])?["spam"] == 3)
            }
        }
        let summary = object(try replicas.request(1, "GET", "/v1/items/soup"))
        #expect(summary["count"] as? Int == 5 && summary["reviewCount"] as? Int == 1)
        let queue = object(try replicas.request(2, "GET", "/v1/moderation/queue"))
        #expect((queue["reviews"] as? [[String: Any]])?.compactMap { $0["raterId"] as? String }.sorted() == authors)
    }

    @Test("three replicas share the outbox: every write's event delivered once, by one replica, its itemVersions counting each write")
    func webhooksAcrossReplicas() async throws {
        try await withWebhookReceiver { port, received in
            let directory = try TemporaryDirectory("ratings-replicas")
            defer { directory.remove() }
            let file = directory.file("hooks.json")
            try webhooksFile([("crm", "http://127.0.0.1:\(port)/in")]).write(toFile: file, atomically: true, encoding: .utf8)
            let replicas = try Replicas(uri: try PostgresCluster.shared().freshDatabaseURI(), count: 3, directory: directory,
                                        arguments: ["--webhooks", file])
            defer { replicas.stop() }
            let statuses = concurrently(90) { index in
                (try? replicas.request(index % 3, "PUT", "/v1/items/item-\(index % 3)/ratings/u-\(index)", json: #"{"stars": 4}"#).status) ?? -1
            }
            #expect(statuses.allSatisfy { $0 == 201 })
            #expect(eventually(timeout: 20) { received.withLock { $0.count } >= 90 })
            try await Task.sleep(for: .milliseconds(500))
            let events = received.withLock { $0 }
            #expect(events.count == 90 && Set(events.map(\.id)).count == 90, "each event once: \(events.count) deliveries")
            for item in 0..<3 {
                let versions = events.filter { $0.data["itemId"] as? String == "item-\(item)" }.compactMap { $0.data["itemVersion"] as? Int }
                #expect(versions.sorted() == Array(1...30), "item-\(item)")
            }
        }
    }

    @Test("while PostgreSQL is down: healthz 200, readyz and every request 503 within 5 s; back up, the replicas recover alone; kill -9 of one leaves the rest serving")
    func outageAndRecovery() throws {
        let directory = try TemporaryDirectory("ratings-outage")
        defer { directory.remove() }
        let cluster = try PostgresCluster.startPrivate()
        defer { cluster.remove() }
        let replicas = try Replicas(uri: try cluster.freshDatabaseURI(), count: 3, directory: directory)
        defer { replicas.stop() }
        #expect(try replicas.request(0, "PUT", "/v1/items/kept/ratings/u-1", json: #"{"stars": 5}"#).status == 201)

        try cluster.stop()
        for (method, path, json) in [("GET", "/v1/items/kept", nil), ("PUT", "/v1/items/kept/ratings/u-2", #"{"stars": 1}"#),
                                     ("GET", "/readyz", nil), ("DELETE", "/v1/items/kept/ratings/u-1", nil)] as [(String, String, String?)] {
            let started = Date()
            let response = try replicas.request(1, method, path, json: json)
            #expect(response.status == 503 && response.header("content-type") == "application/problem+json", "\(method) \(path)")
            #expect(Date().timeIntervalSince(started) < 5, "\(method) \(path) took \(Date().timeIntervalSince(started)) s")
        }
        #expect(try replicas.request(2, "GET", "/healthz").status == 200)
        // Many requests failing the same way: each failure logged on one line, without SQL, and
        // the same failure at most once a second (with a count of those held back).
        let outageStarted = Date()
        for index in 0..<40 { #expect(try replicas.request(1, "GET", "/v1/items/kept-\(index % 2)").status == 503) }
        let seconds = Int(Date().timeIntervalSince(outageStarted).rounded(.up)) + 1
        let failures = replicas.servers[1].stderr.split(separator: "\n").filter { $0.contains("storage failure") }
        #expect(failures.allSatisfy { !$0.contains("\t") && !$0.contains("item_id") && !$0.contains("max_rating") }, "\(failures)")
        let distinct = Set(failures.map { $0.split(separator: ": storage failure: ").last.map { String($0.split(separator: " (and ").first ?? $0) } ?? "" })
        #expect(failures.count <= distinct.count * (seconds + 1) + 4, "\(failures.count) lines for \(distinct.count) failures in \(seconds) s: \(failures)")

        try cluster.start()
        #expect(eventually(timeout: 10) { (try? replicas.request(1, "GET", "/readyz").status) == 200 }, "the replica reconnected by itself")
        #expect(object(try replicas.request(2, "GET", "/v1/items/kept"))["count"] as? Int == 1, "nothing acknowledged was lost")
        #expect(try replicas.request(1, "DELETE", "/v1/items/kept/ratings/u-1").status == 200)

        // Write load on every replica; one is killed in the middle; the others keep answering.
        let acknowledged = Locked<[String]>([])
        let failedOnSurvivors = Locked<[String]>([])
        let killed = Locked(false)
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            for step in 0..<40 {
                let replica = worker % 3
                if worker == 0 && step == 10 { replicas.servers[0].send(SIGKILL); killed.withLock { $0 = true } }
                let rater = "w\(worker)-\(step)"
                let outcome: String
                do {
                    outcome = String(try replicas.request(replica, "PUT", "/v1/items/load/ratings/\(rater)", json: #"{"stars": 3}"#).status)
                } catch {
                    outcome = "\(error)"
                }
                if outcome == "201" { acknowledged.withLock { $0.append(rater) } } else if replica != 0 { failedOnSurvivors.withLock { $0.append("\(rater) on \(replica): \(outcome)") } }
            }
        }
        #expect(killed.withLock { $0 })
        #expect(failedOnSurvivors.withLock { $0 } == [], "the surviving replicas answered every write; their logs: \(replicas.servers[1].stderr) \(replicas.servers[2].stderr) \(replicas.servers[2].stdout.suffix(3000))")
        let count = object(try replicas.request(1, "GET", "/v1/items/load"))["count"] as? Int
        #expect(count == acknowledged.withLock { $0.count }, "every acknowledged write is counted, and only those")
        let connections = try cluster.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'ratings'").flatMap { Int($0) } ?? 0
        #expect(connections <= 8, "two live replicas with pools of 4 hold at most 8 connections; found \(connections)")
    }
}
