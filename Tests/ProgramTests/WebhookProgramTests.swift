import Foundation
import Glibc
import Locking
import TestSupport
import Testing

@Suite("Webhooks through the real binary: the file, its reloads, and no event lost to kill -9", .serialized)
struct WebhookProgramTests {
    @Test("a webhooks file that is missing or broken stops start-up with exit 2, naming the mistake and never the secret")
    func brokenFileAtStart() throws {
        let directory = try TemporaryDirectory("ratings-webhooks")
        defer { directory.remove() }
        let broken = directory.file("hooks.json")
        try #"{"endpoints": [{"id": "crm", "url": "mailto:x", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}]}"#
            .write(toFile: broken, atomically: true, encoding: .utf8)
        for (file, mistake) in [(broken, "url must be an http:// or https:// URL"), (directory.file("absent.json"), "cannot be read")] {
            let result = try RatingsProcess.run(["serve", "--port", "0", "--database", directory.file("db.sqlite"), "--webhooks", file])
            #expect(result.status == 2 && result.stderr.contains("--webhooks") && result.stderr.contains(mistake), "\(result.stderr)")
            #expect(!result.stderr.contains("MfKQ9r8G"))
        }
    }

    @Test("SIGHUP with a broken file keeps the endpoints in force; a changed file takes effect by itself")
    func reloads() async throws {
        try await withWebhookReceiver { port, received in
            let directory = try TemporaryDirectory("ratings-webhooks")
            defer { directory.remove() }
            let file = directory.file("hooks.json")
            try webhooksFile([("one", "http://127.0.0.1:\(port)/one")]).write(toFile: file, atomically: true, encoding: .utf8)
            let server = try RatingsServer(["--database", directory.file("db.sqlite"), "--webhooks", file, "--write-rate", "0"])
            defer { server.stop() }
            let rate = { (item: String) throws -> Int in
                try server.request("PUT", "/v1/items/\(item)/ratings/u-1", json: #"{"stars": 4}"#).status
            }
            #expect(try rate("a") == 201)
            #expect(eventually { received.withLock { $0.map(\.path) } == ["/one"] })
            try "{ not json".write(toFile: file, atomically: true, encoding: .utf8)
            server.send(SIGHUP)
            #expect(eventually { server.stderr.contains("the endpoints in force are kept") })
            #expect(try rate("b") == 201)
            #expect(eventually { received.withLock { $0.map(\.path) } == ["/one", "/one"] })
            try webhooksFile([("two", "http://127.0.0.1:\(port)/two")]).write(toFile: file, atomically: true, encoding: .utf8)
            #expect(eventually { server.stderr.contains("endpoints in force: two") })
            #expect(try rate("c") == 201)
            #expect(eventually { received.withLock { $0.map(\.path) } == ["/one", "/one", "/two"] })
            let status = try server.object("GET", "/v1/admin/webhooks")
            #expect((status["endpoints"] as? [[String: Any]])?.map { $0["id"] as? String } == ["two"])
        }
    }

    @Test("kill -9 with events waiting: after a restart every acknowledged write's event arrives, at least once")
    func killNineLosesNoEvent() async throws {
        let directory = try TemporaryDirectory("ratings-webhooks")
        defer { directory.remove() }
        let database = directory.file("db.sqlite"), file = directory.file("hooks.json")
        // The endpoint answers 503 until the server has been killed, so the events wait in the outbox.
        let open = Locked(false)
        try await withWebhookReceiver(status: { _ in open.withLock { $0 } ? 204 : 503 }) { port, received in
            try webhooksFile([("crm", "http://127.0.0.1:\(port)/in")]).write(toFile: file, atomically: true, encoding: .utf8)
            var acknowledged: Set<String> = []
            do {
                let server = try RatingsServer(["--database", database, "--webhooks", file, "--write-rate", "0"])
                defer { server.stop() }
                for index in 0..<200 where try server.request("PUT", "/v1/items/item-\(index % 7)/ratings/u-\(index)",
                                                              json: #"{"stars": 3}"#).status == 201 {
                    acknowledged.insert("item-\(index % 7)/u-\(index)")
                }
                server.send(SIGKILL)
                #expect(server.waitForExit() != 0)
            }
            #expect(acknowledged.count == 200)
            open.withLock { $0 = true }
            let restarted = try RatingsServer(["--database", database, "--webhooks", file])
            defer { restarted.stop() }
            // The endpoint's 503s carried Retry-After: 1, so the waiting events are due again at once;
            // those the killed process held are handed out when their 30 s lease ends.
            let delivered = { received.withLock { list in Set(list.filter { $0.status == 204 }.map { "\($0.data["itemId"] ?? "")/\($0.data["raterId"] ?? "")" }) } }
            #expect(eventually(timeout: 60) { delivered().isSuperset(of: acknowledged) }, "\(acknowledged.subtracting(delivered()).count) events not delivered")
            #expect(received.withLock { $0.filter { $0.status == 204 }.allSatisfy { $0.type == "rating.created" } })
        }
    }
}
