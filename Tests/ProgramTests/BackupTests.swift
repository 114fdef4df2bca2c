import Foundation
import TestSupport
import Testing

@Suite("ratings backup: a consistent copy of a serving SQLite database", .serialized)
struct BackupTests {
    @Test("while writers stream ratings into a serving file, the copy holds every write acknowledged before it began and serves as it is")
    func backupWhileServing() throws {
        let directory = try TemporaryDirectory("ratings-backup")
        defer { directory.remove() }
        let source = directory.file("db.sqlite"), copy = directory.file("copy.sqlite")
        let server = try RatingsServer(["--database", source, "--write-rate", "0"])
        defer { server.stop() }
        let writers = StreamingWriters(server, writers: 4, items: 40, prefix: "item")
        #expect(eventually { writers.acknowledged.count >= 100 })
        let before = writers.acknowledged
        let result = try RatingsProcess.run(["backup", "--database", source, "--to", copy])
        #expect(writers.stop())
        #expect(result.status == 0 && result.stdout.contains("backed up \(source) to \(copy)"), "\(result.stderr)")
        // Every rating acknowledged before the backup began is there, with those stars or later ones.
        let stored = try SQLiteFixture.ratings(copy)
        #expect(before.keys.allSatisfy { stored[$0] != nil }, "\(before.keys.filter { stored[$0] == nil }.count) acknowledged ratings missing")
        #expect(try SQLiteFixture.scalar(copy, "PRAGMA integrity_check") == "ok")
        let copied = try RatingsServer(["--database", copy])
        defer { copied.stop() }
        let summary = try copied.object("GET", "/v1/items/item-0")
        #expect((summary["count"] as? Int ?? 0) >= 1)
    }

    @Test("an existing file is refused and left untouched; a missing source, a PostgreSQL URI and no --to are refused with exit 2")
    func refusals() throws {
        let directory = try TemporaryDirectory("ratings-backup")
        defer { directory.remove() }
        let source = directory.file("db.sqlite"), existing = directory.file("existing.sqlite")
        #expect(try RatingsProcess.run(["migrate", "--database", source]).status == 0)
        try "keep me".write(toFile: existing, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--database", source, "--to", existing], "already exists"),
            (["--database", directory.file("absent.sqlite"), "--to", directory.file("a.sqlite")], "cannot read"),
            (["--database", "postgresql://u@127.0.0.1/db", "--to", directory.file("b.sqlite")], "pg_dump"),
            (["--database", source], "--to"),
        ]
        for (arguments, reason) in cases {
            let result = try RatingsProcess.run(["backup"] + arguments)
            #expect(result.status == 2 && result.stderr.contains(reason), "\(arguments): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: directory.file("a.sqlite")))
        let unwritable = try RatingsProcess.run(["backup", "--database", source, "--to", directory.file("no/such/folder.sqlite")])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("must exist and be writable"))
    }
}
