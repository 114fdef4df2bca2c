import Foundation
import Glibc
import RatingsCore
import TestSupport
import Testing

@Suite("ratings copy: its table list, refusals, failures and a copy killed half-way", .serialized)
struct CopyFaultTests {
    @Test("the copied tables are exactly the tables the migrations create, with their primary keys, on both engines",
          arguments: CopyTestDatabase.Engine.allCases)
    func tableListMatchesMigrations(engine: CopyTestDatabase.Engine) throws {
        let directory = try TemporaryDirectory("ratings-copy-tables")
        defer { directory.remove() }
        let database = try CopyTestDatabase(engine, in: directory, name: "db")
        #expect(try RatingsProcess.run(["migrate", "--database", database.argument]).status == 0)
        let listed = CopiedTables.all.map { "\($0.name)(\($0.key.joined(separator: ",")))" }.sorted().joined(separator: " ")
        let created: String?
        switch engine {
        case .sqlite:
            created = try database.scalar("""
                SELECT group_concat(entry, ' ') FROM (
                    SELECT m.name || '(' || (SELECT group_concat(name, ',') FROM (SELECT name FROM pragma_table_info(m.name) WHERE pk > 0 ORDER BY pk)) || ')' AS entry
                    FROM sqlite_master m WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'schema_migrations' ORDER BY entry)
                """)
        case .postgresql:
            let schema = String(database.argument[database.argument.range(of: "search_path%3D")!.upperBound...])
            created = try database.scalar("""
                SELECT string_agg(entry, ' ' ORDER BY entry COLLATE "C") FROM (
                    SELECT c.relname || '(' || string_agg(a.attname, ',' ORDER BY k.position) || ')' AS entry
                    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
                    CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
                    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                    WHERE n.nspname = '\(schema)' AND c.relkind = 'r' AND c.relname <> 'schema_migrations'
                    GROUP BY c.relname) tables
                """)
        }
        #expect(created == listed, "a table the migrations create is missing from CopiedTables.all, or the other way round")
    }

    @Test("a copy killed half-way leaves the destination marked: a second copy and serve refuse it naming the fix; discard copies again",
          arguments: CopyTestDatabase.Engine.allCases)
    func killedHalfWay(to engine: CopyTestDatabase.Engine) throws {
        let directory = try TemporaryDirectory("ratings-copy-killed")
        defer { directory.remove() }
        let source = try CopyTestDatabase(.sqlite, in: directory, name: "source"), target = try CopyTestDatabase(engine, in: directory, name: "target")
        try Self.seedLarge(source.argument, ratings: 300_000)
        let copy = try RatingsProcess(["copy", "--from", source.argument, "--to", target.argument])
        #expect(eventually(timeout: 30) { (try? target.rows("settings WHERE name = 'copy-incomplete'")) == 1 })
        // SQLite commits every 100,000 rows: wait for the first, so the copy dies with rows behind
        // it. PostgreSQL's rows stay in one transaction, which the kill rolls back.
        if engine == .sqlite { #expect(eventually(timeout: 30) { (try? target.rows("ratings")) ?? 0 >= 100_000 }) }
        copy.send(SIGKILL)
        #expect(copy.waitForExit() != 0)
        #expect(try target.rows("settings WHERE name = 'copy-incomplete'") == 1, "the marker stays: \(copy.stderr)")

        let again = try RatingsProcess.run(["copy", "--from", source.argument, "--to", target.argument])
        #expect(again.status == 2 && again.stderr.contains("holds an unfinished copy") && again.stderr.contains("--if-incomplete discard"), "\(again.stderr)")
        let serve = try RatingsProcess.run(["serve", "--port", "0", "--database", target.argument])
        #expect(serve.status == 1 && serve.stderr.contains("holds an unfinished copy (a copy from \(source.argument) begun at "), "\(serve.stderr)")

        let discard = try RatingsProcess.run(["copy", "--from", source.argument, "--to", target.argument, "--if-incomplete", "discard"])
        #expect(discard.status == 0 && discard.stdout.contains("ratings 300,000"), "\(discard.stdout) \(discard.stderr)")
        #expect(try target.rows("ratings") == 300_000 && target.rows("items") == 3_000)
        let served = try RatingsServer(["--database", target.argument])
        #expect(try served.object("GET", "/v1/items/big-7")["count"] as? Int == 100)
        if engine == .sqlite {
            // A file a server holds is claimed: no copy writes under it.
            let claimed = try RatingsProcess.run(["copy", "--from", source.argument, "--to", target.argument])
            #expect(claimed.status == 1 && claimed.stderr.contains("another `ratings serve` is already using it"), "\(claimed.stderr)")
        }
        served.stop()
        // A finished copy is a database with items: copying into it again is refused.
        let full = try RatingsProcess.run(["copy", "--from", source.argument, "--to", target.argument, "--if-incomplete", "discard"])
        #expect(full.status == 2 && full.stderr.contains("already holds 3000 items"), "\(full.stderr)")
    }

    @Test("refusals exit 2 naming what to change; databases that cannot be opened exit 1 as serve does")
    func refusalsAndFailures() throws {
        let directory = try TemporaryDirectory("ratings-copy-refusals")
        defer { directory.remove() }
        let source = directory.file("source.sqlite"), plain = directory.file("plain.sqlite")
        #expect(try RatingsProcess.run(["migrate", "--database", source]).status == 0)
        try SQLiteFixture.execute(plain, "CREATE TABLE notes (x TEXT)")
        let refused: [([String], String)] = [
            (["--from", source], "--to"),
            (["--to", directory.file("a.sqlite")], "--from"),
            (["--from", source, "--to", source], "both name"),
            (["--from", directory.file("absent.sqlite"), "--to", directory.file("b.sqlite")], "does not exist"),
            (["--from", plain, "--to", directory.file("c.sqlite")], "not a ratings database"),
            (["--from", source, "--to", directory.file("d.sqlite"), "--if-incomplete", "maybe"], "must be refuse or discard"),
        ]
        for (arguments, reason) in refused {
            let result = try RatingsProcess.run(["copy"] + arguments)
            #expect(result.status == 2 && result.stderr.contains(reason), "\(arguments): \(result.stderr)")
        }
        let unreachable = "postgresql://nobody@127.0.0.1:1/none"
        for arguments in [["--from", unreachable, "--to", directory.file("e.sqlite")], ["--from", source, "--to", unreachable]] {
            let result = try RatingsProcess.run(["copy"] + arguments)
            #expect(result.status == 1 && result.stderr.contains("cannot open database \(unreachable)"), "\(result.stderr)")
        }
        let noFolder = directory.file("no/such/folder.sqlite")
        let unwritable = try RatingsProcess.run(["copy", "--from", source, "--to", noFolder])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("cannot open database \(noFolder)"), "\(unwritable.stderr)")
        let help = try RatingsProcess.run(["copy", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--if-incomplete"))
    }

    @Test("a destination in a folder the process cannot write: exit 1 naming the database, as serve does",
          .enabled(if: getuid() == 0, "runs the binary as another user, which needs root"))
    func readOnlyDestinationFolder() throws {
        let directory = try TemporaryDirectory("ratings-copy-readonly")
        defer { directory.remove() }
        let binary = try binaryAlone(in: directory)
        // The source's folder is writable by anyone (a reader of a WAL database keeps its -shm
        // there); the destination's, root's with mode 0755, by root alone.
        let sources = directory.file("sources")
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: false)
        let source = sources + "/source.sqlite", target = directory.file("target.sqlite")
        try Self.seedLarge(source, ratings: 1_000)
        #expect(chmod(sources, 0o777) == 0 && chmod(source, 0o666) == 0 && chmod(directory.path, 0o755) == 0)
        let copy = try Subprocess(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                   binary, "copy", "--from", source, "--to", target], environment: ["PATH": "/usr/bin:/bin"])
        #expect(copy.waitForExit(timeout: 20) == 1)
        #expect(copy.stderr.contains("cannot open database \(target)") && copy.stderr.contains("Permission denied"), "\(copy.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("on a terminal, each table's line is redrawn in place with its rate and time left")
    func progressOnATerminal() throws {
        let directory = try TemporaryDirectory("ratings-copy-terminal")
        defer { directory.remove() }
        let source = directory.file("source.sqlite"), target = directory.file("target.sqlite")
        try Self.seedLarge(source, ratings: 100_000)
        let binary = RatingsProcess.binaryPath
        // `script` runs the copy on a pseudo-terminal and keeps what it drew.
        let run = try Subprocess(["/usr/bin/script", "-qec", "\(binary) copy --from \(source) --to \(target)", "/dev/null"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.waitForExit(timeout: 60) == 0, "\(run.stdout)")
        #expect(run.stdout.contains("\r\u{1B}[K") && run.stdout.contains("ratings") && run.stdout.contains("100,000 rows in"), "\(run.stdout)")
    }

    /// A SQLite ratings database with `ratings` ratings on 3,000 items ("big-0"…), aggregates consistent.
    static func seedLarge(_ path: String, ratings: Int) throws {
        #expect(try RatingsProcess.run(["migrate", "--database", path]).status == 0)
        let stars = (1...5).map { "sum(stars = \($0))" }.joined(separator: ", ")
        try SQLiteFixture.execute(path, """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(ratings - 1))
            INSERT INTO ratings (item_id, rater_id, stars, updated_at_ms) SELECT 'big-' || (i % 3000), 'rater-' || (i / 3000), i % 5 + 1, 1700000000000 + i FROM n;
            INSERT INTO items (item_id, max_rating, rating_count, rating_sum, stars_1, stars_2, stars_3, stars_4, stars_5)
                SELECT item_id, 5, count(*), sum(stars), \(stars) FROM ratings GROUP BY item_id;
            COMMIT;
            """)
    }
}
