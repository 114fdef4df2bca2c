import Foundation
@testable import ratings
import TestSupport
import Testing

/// Every integer setting of every command, for the bound tests.
private let integerSettings: [(command: Command, setting: Setting, range: ClosedRange<Int>)] = Commands.all.flatMap { command in
    command.settings.compactMap { setting in
        if case .integer(let range) = setting.kind { return (command, setting, range) } else { return nil }
    }
}

private func options(_ command: Command, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> Options {
    try Options(arguments, command: command, environment: Environment(values: environment))
}

@Suite("Command settings: one table parses the flags and writes the help")
struct SettingsTests {
    @Test("every setting of every command is in its help, with its variable and default")
    func helpListsEverySetting() {
        for command in Commands.all {
            for setting in command.settings {
                if let flag = setting.flag { #expect(command.usage.contains("--\(flag) \(setting.placeholder)"), "\(command.name) --\(flag)") }
                #expect(command.usage.contains(setting.variable), "\(command.name) \(setting.variable)")
                if let value = setting.defaultValue { #expect(command.usage.contains("default \(value)")) }
            }
            #expect(Commands.usage.contains("ratings \(command.name)"))
        }
    }

    @Test("each integer flag is accepted at both bounds and refused just past them, naming the flag or variable")
    func integerBounds() throws {
        #expect(integerSettings.count >= 4)
        for (command, setting, range) in integerSettings {
            let flag = try #require(setting.flag)
            for value in [range.lowerBound, range.upperBound] {
                #expect(try options(command, ["--\(flag)", String(value)]).integer(flag) == value, "--\(flag) \(value)")
                #expect(try options(command, environment: [setting.variable: String(value)]).integer(flag) == value)
            }
            for value in [range.lowerBound - 1, range.upperBound + 1] {
                do {
                    _ = try options(command, ["--\(flag)=\(value)"]).integer(flag)
                    Issue.record("--\(flag) \(value) was accepted")
                } catch let error as Options.Problem {
                    #expect(error.message == "--\(flag) must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(value)'")
                }
                #expect(throws: Options.Problem.self) { try options(command, environment: [setting.variable: String(value)]).integer(flag) }
            }
        }
    }

    @Test("a flag overrides its variable, which overrides the default")
    func precedence() throws {
        #expect(try options(Commands.serve).integer("port") == 8080)
        #expect(try options(Commands.serve, environment: ["RATINGS_PORT": "9"]).integer("port") == 9)
        #expect(try options(Commands.serve, ["--port", "7"], environment: ["RATINGS_PORT": "9"]).integer("port") == 7)
        #expect(try options(Commands.serve, ["--log-format=json"]).choice("log-format") == "json")
        #expect(throws: Options.Problem.self) { try options(Commands.serve, ["--log-format", "xml"]).choice("log-format") }
    }

    @Test("refused command lines", arguments: [["--bogus", "1"], ["--port"], ["--port", "1", "--port", "2"], ["stray"]])
    func refusedCommandLines(arguments: [String]) {
        #expect(throws: Options.Problem.self) { try options(Commands.serve, arguments) }
    }

    @Test("a secret comes from its variable or from the file its _FILE variable names, not both")
    func secretsFromFiles() throws {
        let directory = try TemporaryDirectory("ratings-secret")
        defer { directory.remove() }
        let file = directory.file("secret")
        try "from-a-file\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try options(Commands.serve, environment: ["RATINGS_JWT_SECRET_FILE": file]).secret("RATINGS_JWT_SECRET") == "from-a-file")
        #expect(try options(Commands.serve, environment: ["RATINGS_JWT_SECRET": "direct"]).secret("RATINGS_JWT_SECRET") == "direct")
        #expect(try options(Commands.serve).secret("RATINGS_JWT_SECRET") == nil)
        #expect(throws: Options.Problem.self) {
            try options(Commands.serve, environment: ["RATINGS_JWT_SECRET": "a", "RATINGS_JWT_SECRET_FILE": file]).secret("RATINGS_JWT_SECRET")
        }
        #expect(throws: Options.Problem.self) {
            try options(Commands.serve, environment: ["RATINGS_JWT_SECRET_FILE": directory.file("missing")]).secret("RATINGS_JWT_SECRET")
        }
        // A database URI carries a password, so it may come from a file too; the flag still wins.
        let uri = directory.file("uri")
        try "postgresql://app:pw@db/ratings\n".write(toFile: uri, atomically: false, encoding: .utf8)
        #expect(try options(Commands.serve, environment: ["RATINGS_DATABASE_FILE": uri]).text("database") == "postgresql://app:pw@db/ratings")
        #expect(try options(Commands.serve, ["--database", "x.sqlite"], environment: ["RATINGS_DATABASE_FILE": uri]).text("database") == "x.sqlite")
        #expect(try options(Commands.migrate).text("database") == "ratings.sqlite")
    }
}
