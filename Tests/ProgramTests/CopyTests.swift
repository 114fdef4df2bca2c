import Foundation
import RatingsCore
import TestSupport
import Testing

/// One database a copy test reads or writes, of either engine.
struct CopyTestDatabase: CustomStringConvertible {
    enum Engine: String, CaseIterable, Sendable { case sqlite, postgresql }

    let engine: Engine
    /// What `--database`, `--from` and `--to` take.
    let argument: String
    private let schema: String

    /// A new, empty database of `engine`: a file in `directory`, or a schema of the shared cluster.
    init(_ engine: Engine, in directory: TemporaryDirectory, name: String) throws {
        self.engine = engine
        switch engine {
        case .sqlite:
            argument = directory.file("\(name).sqlite")
            schema = ""
        case .postgresql:
            argument = try PostgresCluster.shared().freshDatabaseURI()
            schema = String(argument[argument.range(of: "search_path%3D")!.upperBound...])
        }
    }

    var description: String { engine.rawValue }

    /// The first column of the first row of `sql`, in which `{t}` prefixes each table name.
    func scalar(_ sql: String) throws -> String? {
        switch engine {
        case .sqlite: return try SQLiteFixture.scalar(argument, sql.replacingOccurrences(of: "{t}", with: ""))
        case .postgresql: return try PostgresCluster.shared().scalar(sql.replacingOccurrences(of: "{t}", with: "\(schema)."))
        }
    }

    func rows(_ table: String) throws -> Int { Int(try scalar("SELECT count(*) FROM {t}\(table)") ?? "") ?? -1 }
}

@Suite("ratings copy: every table between any two databases, checked, while the source serves", .serialized)
struct CopyTests {
    static let pairs: [(CopyTestDatabase.Engine, CopyTestDatabase.Engine)] = [(.sqlite, .sqlite), (.sqlite, .postgresql), (.postgresql, .sqlite),
                                                                              (.postgresql, .postgresql)]

    @Test("a serving source taking writes is copied whole: summaries, reviews with votes, flags, replies and history, events, cursors",
          arguments: pairs)
    func copiesWhileServing(from: CopyTestDatabase.Engine, to: CopyTestDatabase.Engine) throws {
        let directory = try TemporaryDirectory("ratings-copy")
        defer { directory.remove() }
        let source = try CopyTestDatabase(from, in: directory, name: "source"), target = try CopyTestDatabase(to, in: directory, name: "target")
        // An endpoint nobody answers: every event stays pending in the outbox.
        let hooks = directory.file("hooks.json")
        try webhooksFile([("crm", "http://127.0.0.1:\(freeLoopbackPort() ?? 9)/in")]).write(toFile: hooks, atomically: true, encoding: .utf8)
        let server = try RatingsServer(["--database", source.argument, "--write-rate", "0", "--webhooks", hooks])
        defer { server.stop() }
        try seed(server)
        let page1 = try server.object("GET", "/v1/items/soup-0/reviews?limit=3")
        let cursor = try #require(page1["nextCursor"] as? String)
        let page2 = try server.request("GET", "/v1/items/soup-0/reviews?limit=3&cursor=\(cursor)")
        let summaries = try (0..<5).map { try server.request("GET", "/v1/items/soup-\($0)").text }
        let eventsBefore = try source.rows("webhook_outbox")
        #expect(eventsBefore > 0)

        // Writers keep going through the copy, on items of their own.
        let writers = StreamingWriters(server, writers: 2, items: 20, prefix: "live")
        #expect(eventually { writers.acknowledged.count >= 20 })
        let before = writers.acknowledged.keys.map { key in
            let (item, rater) = (key.prefix { $0 != "/" }, key.drop { $0 != "/" }.dropFirst())
            return "/v1/items/\(item)/ratings/\(rater)"
        }
        let copy = try RatingsProcess.run(["copy", "--from", source.argument, "--to", target.argument])
        #expect(writers.stop())
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("every item's count, sum and distribution match"), "\(copy.stdout)")
        for table in CopiedTables.all { #expect(copy.stderr.contains(table.name), "progress names \(table.name): \(copy.stderr)") }

        #expect(try target.rows("webhook_outbox") >= eventsBefore, "pending events come along")
        #expect(try target.scalar("SELECT version FROM {t}items WHERE item_id = 'soup-0'") == source.scalar("SELECT version FROM {t}items WHERE item_id = 'soup-0'"))
        #expect(try target.scalar("SELECT value FROM {t}settings WHERE name = 'cursor-secret'")
                == source.scalar("SELECT value FROM {t}settings WHERE name = 'cursor-secret'"))
        let copied = try RatingsServer(["--database", target.argument])
        defer { copied.stop() }
        #expect(try (0..<5).map { try copied.request("GET", "/v1/items/soup-\($0)").text } == summaries)
        // The source's cursor goes on where it left off.
        #expect(try copied.request("GET", "/v1/items/soup-0/reviews?limit=3&cursor=\(cursor)").text == page2.text)
        let review = try copied.object("GET", "/v1/items/soup-0/reviews/r0")
        #expect(review["body"] as? String == "Deep broth,\nfresh noodles \\ «très bon» 日本語" && (review["reply"] as? [String: Any])?["body"] as? String == "Thank you")
        #expect((review["helpful"] as? [String: Any])?["up"] as? Int == 1)
        let history = try copied.object("GET", "/v1/items/soup-0/reviews/r2/moderation")
        #expect(history["status"] as? String == "rejected" && (history["history"] as? [Any])?.count == 1, "\(history)")
        let flagged = try copied.object("GET", "/v1/items/soup-0/reviews/r1/moderation")
        #expect((flagged["flags"] as? [String: Int])?["spam"] == 1, "\(flagged)")
        for path in before { #expect(try copied.request("GET", path).status == 200, "\(path) was acknowledged before the copy") }
        #expect(try copied.object("GET", "/v1/items/scaled")["maxRating"] as? Int == 10)
        // Numbered rows go on after the copied ones (PostgreSQL's identity restarts past them).
        #expect(try copied.request("PUT", "/v1/items/soup-0/reviews/r3/moderation", json: #"{"status": "rejected"}"#).status == 200)
        #expect(try target.scalar("SELECT count(DISTINCT entry_id) FROM {t}moderation_history") == "2")
    }

    /// Scales, ratings, reviews with text that needs escaping, a vote, a flag, a reply and a decision.
    private func seed(_ server: RatingsServer) throws {
        #expect(try server.request("PUT", "/v1/items/scaled", json: #"{"maxRating": 10}"#).status < 300)
        #expect(try server.request("PUT", "/v1/items/scaled/ratings/r0", json: #"{"stars": 9}"#).status == 201)
        for item in 0..<5 {
            for rater in 0..<12 {
                let stars = (item * 7 + rater * 3) % 5 + 1
                #expect(try server.request("PUT", "/v1/items/soup-\(item)/ratings/r\(rater)", json: "{\"stars\": \(stars)}").status == 201)
            }
        }
        for rater in 0..<8 {
            let body = rater == 0 ? #"Deep broth,\nfresh noodles \\ «très bon» 日本語"# : "Review \(rater)"
            #expect(try server.request("PUT", "/v1/items/soup-0/reviews/r\(rater)", json: "{\"stars\": \(rater % 5 + 1), \"body\": \"\(body)\"}").status == 201)
        }
        #expect(try server.request("PUT", "/v1/items/soup-0/reviews/r0/votes/r1", json: #"{"helpful": true}"#).status < 300)
        #expect(try server.request("PUT", "/v1/items/soup-0/reviews/r1/flags/r2", json: #"{"reason": "spam"}"#).status < 300)
        #expect(try server.request("PUT", "/v1/items/soup-0/reviews/r0/reply", json: #"{"body": "Thank you"}"#).status < 300)
        #expect(try server.request("PUT", "/v1/items/soup-0/reviews/r2/moderation", json: #"{"status": "rejected", "reason": "off topic"}"#).status < 300)
    }
}
