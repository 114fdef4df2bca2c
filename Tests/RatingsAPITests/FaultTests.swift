import Foundation
@testable import SQLiteStore
import TestSupport
import Testing

/// Another process holding the database's write lock, stood in for by a second connection.
// Safe: used by the test thread only, before and after the requests it blocks.
private final class LockHolder: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ path: String) throws { connection = try SQLiteConnection(path: path) }
}

@Suite("Storage faults: writes get 503, reads keep working, nothing stored is lost", .serialized)
struct FaultTests {
    @Test("a database locked by another process past the busy timeout")
    func lockedDatabase() async throws {
        try await withAPI(.sqlite, storeOptions: .init(busyTimeoutMilliseconds: 300), over: .socket) { service in
            #expect(service.request("PUT", "/v1/items/i/ratings/before", json: #"{"stars":4}"#).status == 201)
            let holder = try LockHolder(try #require(service.databasePath))
            try holder.connection.execute("BEGIN IMMEDIATE")
            let blocked = service.request("PUT", "/v1/items/i/ratings/during", json: #"{"stars":2}"#)
            #expect(blocked.status == 503)
            #expect(blocked.header("content-type") == "application/problem+json")
            #expect(detail(blocked).contains("retry"))
            #expect(service.request("DELETE", "/v1/items/i/ratings/before").status == 503)
            let read = service.request("GET", "/v1/items/i/ratings/before")
            #expect(read.status == 200, "reads keep working while the write lock is held")
            #expect(object(service.request("GET", "/v1/items/i"))["count"] as? Int == 1)
            try holder.connection.execute("ROLLBACK")
            #expect(service.request("PUT", "/v1/items/i/ratings/after", json: #"{"stars":5}"#).status == 201)
            #expect(try holder.connection.scalarText("PRAGMA integrity_check") == "ok")
            #expect(try holder.connection.scalarText("SELECT group_concat(rater_id) FROM (SELECT rater_id FROM ratings ORDER BY rater_id)") == "after,before")
        }
    }

    @Test("a full disk", .enabled(if: SmallDisk.isAvailable, "mounting a small tmpfs needs root"))
    func fullDisk() async throws {
        let disk = try SmallDisk(kilobytes: 3072)
        defer { disk.remove() }
        try await withAPI(.sqlite, storeOptions: .init(parentDirectory: disk.path + "/service"), over: .socket) { service in
            var acknowledged: [String] = []
            var refused: RawHTTPClient.Response?
            let padding = String(repeating: "x", count: 100)
            for n in 0..<20_000 {
                let rater = "r\(n)-\(padding)"
                let response = service.request("PUT", "/v1/items/item-\(n % 300)/ratings/\(rater)", json: #"{"stars":3}"#)
                if response.status == 201 { acknowledged.append("item-\(n % 300)/\(rater)") } else { refused = response; break }
            }
            let full = try #require(refused, "the disk never filled")
            #expect(full.status == 503)
            #expect(full.header("content-type") == "application/problem+json")
            #expect(acknowledged.count > 100)
            // Reads keep working on a full disk.
            let first = try #require(acknowledged.first)
            #expect(service.request("GET", "/v1/items/\(first.split(separator: "/")[0])").status == 200)
            let rating = first.split(separator: "/")
            #expect(service.request("GET", "/v1/items/\(rating[0])/ratings/\(rating[1])").status == 200)
            // Everything acknowledged is there, and the file is sound.
            let check = try SQLiteConnection(path: try #require(service.databasePath))
            #expect(try check.scalarText("PRAGMA integrity_check") == "ok")
            let stored = Int(try check.scalarText("SELECT count(*) FROM ratings") ?? "") ?? -1
            #expect(stored == acknowledged.count)
        }
    }
}
