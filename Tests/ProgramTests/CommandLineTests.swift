import Foundation
import TestSupport
import Testing

@Suite("The ratings program: help, migrate, healthcheck, configuration")
struct CommandLineTests {
    @Test("--help and serve --help print usage and exit 0")
    func help() throws {
        let main = try RatingsProcess.run(["--help"])
        #expect(main.status == 0)
        #expect(main.stdout.contains("ratings serve") && main.stdout.contains("ratings migrate") && main.stdout.contains("ratings healthcheck"))
        let serve = try RatingsProcess.run(["serve", "--help"])
        #expect(serve.status == 0)
        #expect(serve.stdout.contains("RATINGS_DEFAULT_MAX_RATING"))
        let unknown = try RatingsProcess.run(["frobnicate"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown command"))
    }

    @Test("migrate applies the migrations, then is a no-op; it needs no source tree")
    func migrateTwice() throws {
        let directory = try TemporaryDirectory("ratings-migrate")
        defer { directory.remove() }
        let binary = try binaryAlone(in: directory) // migrations must be embedded
        let first = try RatingsProcess.run(["migrate", "--database", "db.sqlite"], directory: directory.path, binary: binary)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("applied 1 migration") && first.stdout.contains("0001_initial.sql"))
        let second = try RatingsProcess.run(["migrate"], environment: ["RATINGS_DATABASE": "db.sqlite"], directory: directory.path, binary: binary)
        #expect(second.status == 0)
        #expect(second.stdout.contains("up to date"))
    }

    @Test("the binary alone, away from the source tree, speaks every bundled language")
    func languagesAreEmbedded() throws {
        let directory = try TemporaryDirectory("ratings-languages")
        defer { directory.remove() }
        let binary = try binaryAlone(in: directory)
        let server = try RatingsProcess(["serve", "--port", "0", "--database", "db.sqlite"], directory: directory.path, binary: binary)
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        for expected in LanguageSeedExample.all {
            let response = try RawHTTPClient.exchange(port: port, "GET /v1/display?value=3.5&max=5 HTTP/1.1\nHost: t\nAccept-Language: \(expected.tag)\n\n")
            #expect(response.header("content-language") == expected.tag)
            #expect(response.text.contains("\"accessibilityValue\":\"\(expected.threeAndAHalfOfFive)\""))
        }
    }

    @Test("a database migrated by a newer binary stops start-up with a message naming the file")
    func newerDatabaseStopsStartUp() throws {
        let directory = try TemporaryDirectory("ratings-newer")
        defer { directory.remove() }
        let path = directory.file("db.sqlite")
        #expect(try RatingsProcess.run(["migrate", "--database", path]).status == 0)
        try SQLiteFixture.execute(path, "INSERT INTO schema_migrations (name, checksum) VALUES ('0999_future.sql', 'x')")
        let serve = try RatingsProcess.run(["serve", "--port", "0", "--database", path])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("0999_future.sql") && serve.stderr.contains("newer binary"))
        try SQLiteFixture.execute(path, "DELETE FROM schema_migrations WHERE name = '0999_future.sql'; UPDATE schema_migrations SET checksum = 'edited'")
        let edited = try RatingsProcess.run(["migrate", "--database", path])
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("0001_initial.sql") && edited.stderr.contains("edited"))
    }

    @Test("bad configuration is refused with the source named", arguments: [
        (["serve", "--port", "70000"], [String: String](), "--port"), (["serve", "--port", "abc"], [:], "--port"),
        (["serve", "--default-max-rating", "11"], [:], "--default-max-rating"), (["serve"], ["RATINGS_PORT": "-1"], "RATINGS_PORT"),
        (["serve"], ["RATINGS_DEFAULT_MAX_RATING": "0"], "RATINGS_DEFAULT_MAX_RATING"), (["serve", "--bogus", "1"], [:], "--bogus"),
        (["serve", "--port"], [:], "--port"),
    ])
    func badConfiguration(arguments: [String], environment: [String: String], mention: String) throws {
        let result = try RatingsProcess.run(arguments, environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(mention))
    }

    @Test("flags override environment variables; --port 0 binds an ephemeral port and logs it")
    func flagsOverrideEnvironment() throws {
        let directory = try TemporaryDirectory("ratings-config")
        defer { directory.remove() }
        let server = try RatingsProcess(["serve", "--port", "0", "--default-max-rating", "3"],
                                        environment: ["RATINGS_PORT": "1", "RATINGS_DEFAULT_MAX_RATING": "9",
                                                      "RATINGS_DATABASE": directory.file("env.sqlite")])
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        #expect(port > 0)
        #expect(server.stdout.contains("listening on http://127.0.0.1:\(port)"))
        let summary = try RawHTTPClient.exchange(port: port, "GET /v1/items/x HTTP/1.1\nHost: t\n\n")
        #expect(summary.text.contains("\"maxRating\":3"))
        #expect(FileManager.default.fileExists(atPath: directory.file("env.sqlite")))
        #expect(try RatingsProcess.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz"]).status == 0)
        #expect(try RatingsProcess.run(["healthcheck"], environment: ["RATINGS_PORT": String(port)]).status == 0)
    }

    @Test("healthcheck fails when nothing answers")
    func healthcheckFails() throws {
        let result = try RatingsProcess.run(["healthcheck", "--url", "http://127.0.0.1:1/healthz"])
        #expect(result.status == 1)
        #expect(!result.stderr.isEmpty)
    }
}

/// A copy of the binary in a folder with nothing else, so whatever it needs must be inside it.
private func binaryAlone(in directory: TemporaryDirectory) throws -> String {
    let binary = directory.file("ratings")
    try FileManager.default.copyItem(atPath: RatingsProcess.binaryPath, toPath: binary)
    return binary
}
