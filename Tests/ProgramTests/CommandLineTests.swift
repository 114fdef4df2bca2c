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
        #expect(first.stdout.contains("applied 6 migrations") && first.stdout.contains("0001_initial.sql, 0002_raters_and_ranking.sql, 0003_reviews.sql, 0004_review_replies.sql, 0005_moderation.sql, 0006_webhook_outbox.sql"))
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
        let port = try #require(server.waitForPort(), "the copied binary did not start: \(server.stderr)")
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
        (["serve", "--port"], [:], "--port"), (["serve", "--ranking-prior", "1.5"], [:], "--ranking-prior"),
        (["serve"], ["RATINGS_RANKING_PRIOR": "0.12345"], "RATINGS_RANKING_PRIOR"), (["serve", "--ranking-weight", "100001"], [:], "--ranking-weight"),
        (["serve", "--log-format", "xml"], [:], "--log-format"), (["serve", "--database-pool", "0"], [:], "--database-pool"),
        (["serve", "--max-connections-per-address", "-1"], [:], "--max-connections-per-address"),
        (["serve", "--database", ""], [:], "--database is empty"),
        (["serve", "--host", "nonsense.invalid"], [:], "--host must be an IPv4 or IPv6 address"),
        (["serve"], ["RATINGS_HOST": "300.1.2.3"], "RATINGS_HOST must be an IPv4 or IPv6 address"),
    ])
    func badConfiguration(arguments: [String], environment: [String: String], mention: String) throws {
        let result = try RatingsProcess.run(arguments, environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(mention), "\(result.stderr)")
        #expect(!result.stdout.contains("listening on") && !result.stderr.contains("WARNING"), "refused before anything starts")
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

    @Test("--version names the release and the commit the binary was built from")
    func version() throws {
        let result = try RatingsProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^ratings \d+\.\d+\.\d+ \(commit [0-9a-f]{40}\)\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
        // Through posix_spawn: Foundation's Process.waitUntilExit can hang while other tests spawn.
        let git = try Subprocess(["/usr/bin/git", "-C", URL(fileURLWithPath: #filePath).deletingLastPathComponent().path, "rev-parse", "HEAD"],
                                 environment: ["PATH": "/usr/bin:/bin"])
        defer { git.stop() }
        #expect(git.waitForExit(timeout: 60) == 0, "\(git.stderr)")
        let head = git.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stdout.contains("(commit \(head))"))
    }

    @Test("the largest allowed write rate starts the server (a copy capped at 6 digits once refused it)")
    func largestWriteRate() throws {
        let directory = try TemporaryDirectory("ratings-rate")
        defer { directory.remove() }
        let server = try RatingsProcess(["serve", "--port", "0", "--write-rate", "1000000", "--write-burst", "1000000",
                                         "--database", directory.file("db.sqlite")])
        defer { server.stop() }
        #expect(server.waitForPort() != nil, "\(server.stderr)")
        #expect(server.stderr.contains("limits: 1000000 writes/s per rater, bursts of 1000000"))
    }

    @Test("--log-format json: every line on standard output is one JSON object, the access log's with the request id, and the program's own (listening on, draining, stopped) too")
    func jsonLogs() throws {
        let directory = try TemporaryDirectory("ratings-json-log")
        defer { directory.remove() }
        let server = try RatingsProcess(["serve", "--port", "0", "--log-format", "json", "--database", directory.file("db.sqlite")])
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        _ = try RawHTTPClient.exchange(port: port, "GET /v1/items/x HTTP/1.1\nHost: t\nX-Request-ID: j-1\n\n")
        #expect(server.waitForOutput("\"requestId\":\"j-1\""))
        server.send(SIGTERM)
        #expect(server.waitForExit(timeout: 20) == 0)
        let objects = try server.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
        }
        let access = objects.filter { $0["requestId"] as? String == "j-1" }
        #expect(access.count == 1 && access.first?["status"] as? Int == 200 && access.first?["target"] as? String == "/v1/items/x")
        let messages = objects.compactMap { $0["level"] as? String == "info" ? $0["message"] as? String : nil }
        #expect(messages.first?.hasPrefix("listening on http://127.0.0.1:\(port) ") == true, "\(messages)")
        #expect(messages.dropFirst() == ["received SIGTERM, draining", "stopped"], "\(messages)")
    }

    @Test("RATINGS_JWT_SECRET_FILE: the secret is read from the file, as container secrets are mounted")
    func secretFromFile() throws {
        let directory = try TemporaryDirectory("ratings-secret-file")
        defer { directory.remove() }
        let secret = "a-shared-secret-of-at-least-32-bytes!"
        try (secret + "\n").write(toFile: directory.file("jwt"), atomically: false, encoding: .utf8)
        let server = try RatingsProcess(["serve", "--port", "0", "--database", directory.file("db.sqlite")],
                                        environment: ["RATINGS_JWT_SECRET_FILE": directory.file("jwt")])
        defer { server.stop() }
        let port = try #require(server.waitForPort())
        let put = "PUT /v1/items/i/ratings/u-1 HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n"
        #expect(try RawHTTPClient.exchange(port: port, put + "\n{\"stars\":4}").status == 401)
        let token = TestTokens.hs256(secret: secret, claims: #"{"sub":"u-1"}"#)
        #expect(try RawHTTPClient.exchange(port: port, put + "Authorization: Bearer \(token)\n\n{\"stars\":4}").status == 201)
        let both = try RatingsProcess.run(["serve", "--port", "0"], environment: ["RATINGS_JWT_SECRET_FILE": directory.file("jwt"),
                                                                                  "RATINGS_JWT_SECRET": secret])
        #expect(both.status == 2 && both.stderr.contains("not both"))
    }

    @Test("a SQLite file belongs to one server: a second serve on it exits 1 naming the file")
    func secondServerOnOneFile() throws {
        let directory = try TemporaryDirectory("ratings-owner")
        defer { directory.remove() }
        let path = directory.file("shared.sqlite")
        let first = try RatingsProcess(["serve", "--port", "0", "--database", path])
        defer { first.stop() }
        #expect(first.waitForPort() != nil)
        let second = try RatingsProcess.run(["serve", "--port", "0", "--database", path])
        #expect(second.status == 1)
        #expect(second.stderr.contains(path) && second.stderr.contains("another `ratings serve`"), "\(second.stderr)")
        #expect(try RatingsProcess.run(["migrate", "--database", path]).status == 0, "migrate needs no claim")
        first.send(SIGTERM)
        #expect(first.waitForExit() == 0)
        let third = try RatingsProcess(["serve", "--port", "0", "--database", path])
        defer { third.stop() }
        #expect(third.waitForPort() != nil, "the claim ends with the server that held it")
    }

    @Test("a database in a folder the process cannot write: serve exits 1 saying the folder must be writable",
          .enabled(if: getuid() == 0, "runs the binary as another user, which needs root"))
    func readOnlyFolder() throws {
        let directory = try TemporaryDirectory("ratings-readonly-folder")
        defer { directory.remove() }
        let binary = try binaryAlone(in: directory)
        let path = directory.file("ratings.sqlite")
        #expect(try RatingsProcess.run(["migrate", "--database", path]).status == 0)
        // The file is writable by anyone, its folder (root's, 0755) by root alone.
        #expect(chmod(path, 0o666) == 0 && chmod(directory.path, 0o755) == 0)
        let serve = try Subprocess(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                    binary, "serve", "--port", "0", "--database", path], environment: ["PATH": "/usr/bin:/bin"])
        defer { serve.stop() }
        #expect(serve.waitForExit(timeout: 20) == 1)
        #expect(serve.stderr.contains("cannot open database \(path)") && serve.stderr.contains("the folder that holds the database must be writable"),
                "\(serve.stderr)")
        #expect(!serve.stdout.contains("listening on"))
    }

    @Test("migrate and serve on a postgresql:// URI; the password never reaches the log")
    func postgresURI() throws {
        let cluster = try PostgresCluster.shared()
        let uri = try cluster.freshDatabaseURI()
        let migrated = try RatingsProcess.run(["migrate", "--database", uri])
        #expect(migrated.status == 0 && migrated.stdout.contains("applied 6 migrations"), "\(migrated.stderr)")
        #expect(try RatingsProcess.run(["migrate"], environment: ["RATINGS_DATABASE": uri]).stdout.contains("up to date"))
        let withPassword = uri.replacingOccurrences(of: "postgres@", with: "postgres:hunter2@")
        let server = try RatingsProcess(["serve", "--port", "0", "--database", withPassword, "--database-pool", "2"])
        defer { server.stop() }
        let port = try #require(server.waitForPort(), "\(server.stderr)")
        #expect(server.stdout.contains("postgres:***@") && !server.stdout.contains("hunter2"))
        let put = "PUT /v1/items/pg/ratings/u HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: 11\n\n{\"stars\":4}"
        #expect(try RawHTTPClient.exchange(port: port, put).status == 201)
        #expect(try RawHTTPClient.exchange(port: port, "GET /readyz HTTP/1.1\nHost: t\n\n").status == 200)
        let unreachable = try RatingsProcess.run(["serve", "--port", "0", "--database", "postgresql://nobody@127.0.0.1:1/none"])
        #expect(unreachable.status == 1 && unreachable.stderr.contains("cannot open database postgresql://nobody@127.0.0.1:1/none"))
    }

    @Test("healthcheck fails when nothing answers")
    func healthcheckFails() throws {
        let result = try RatingsProcess.run(["healthcheck", "--url", "http://127.0.0.1:1/healthz"])
        #expect(result.status == 1)
        #expect(!result.stderr.isEmpty)
    }
}

/// A copy of the binary in a folder with nothing else, so whatever it needs must be inside it.
func binaryAlone(in directory: TemporaryDirectory) throws -> String {
    let binary = directory.file("ratings")
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: RatingsProcess.binaryPath)))
    // Close-on-exec: a child another test spawns while this copy is open would otherwise inherit
    // the descriptor, and executing the copy would fail with ETXTBSY for as long as that child lives.
    let fd = open(binary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw RawHTTPClient.ClientError.malformed("cannot create \(binary): errno \(errno)") }
    defer { close(fd) }
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { throw RawHTTPClient.ClientError.malformed("cannot write \(binary): errno \(errno)") }
        written += count
    }
    return binary
}
