import ASCIIKit
import Glibc
import Platform

/// A command's flags as given (`--name value` or `--name=value`, each at most once), read
/// against the command's settings table, with the environment beneath them.
struct Options {
    /// Why the command line or the environment was refused; the command exits 2 with it.
    struct Problem: Error {
        let message: String
    }

    let command: Command
    private let flags: [String: String]
    private let environment: Environment

    /// Parses `arguments`, accepting only the flags of `command`.
    init(_ arguments: [String], command: Command, environment: Environment) throws(Problem) {
        self.command = command
        self.environment = environment
        var flags: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw Problem(message: "unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard command.setting(flag: name) != nil else { throw Problem(message: "unknown option '--\(name)'") }
            if value == nil {
                guard index < arguments.count else { throw Problem(message: "option '--\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            guard flags[name] == nil else { throw Problem(message: "option '--\(name)' is given twice") }
            flags[name] = value
        }
        self.flags = flags
    }

    /// What a command does with its command line: run with these options, or exit with a code
    /// (0 after printing help, 2 after a refused flag).
    enum Parsed {
        case run(Options)
        case exit(Int32)
    }

    /// Parses a command's flags, answering `--help` and refused flags the same way for every command.
    static func parse(_ arguments: [String], command: Command, environment: Environment) -> Parsed {
        if arguments.contains("--help") || arguments.contains("-h") {
            StandardStreams.out(command.usage)
            return .exit(0)
        }
        do {
            return .run(try Options(arguments, command: command, environment: environment))
        } catch {
            StandardStreams.error("ratings \(command.name): \(error.message)\n\n\(command.usage)")
            return .exit(2)
        }
    }

    /// The setting's value and where it came from: the flag, else the variable (or, for secrets,
    /// the file its `_FILE` variable names), else the default.
    private func raw(_ setting: Setting) throws(Problem) -> (text: String, fromFlag: Bool)? {
        if let flag = setting.flag, let value = flags[flag] { return (value, true) }
        switch setting.kind {
        case .secret, .textOrSecret:
            if let value = try secret(setting.variable) { return (value, false) }
        case .text, .integer, .choice:
            if let value = environment[setting.variable] { return (value, false) }
        }
        return setting.defaultValue.map { ($0, false) }
    }

    private func setting(_ name: String) -> Setting {
        // Every name the commands ask for is in their own table; a miss is a programming error
        // caught by the first test that runs the command.
        command.settings.first { $0.flag == name || $0.variable == name }
            ?? Setting(name, name, "", .text, default: nil, "")
    }

    /// A text setting (`host`, `database`), or nil when it has no value and no default.
    func text(_ name: String) throws(Problem) -> String? { try raw(setting(name))?.text }

    /// An integer setting, refused with its source named when it is not a decimal integer in range.
    func integer(_ name: String) throws(Problem) -> Int {
        let setting = setting(name)
        guard case .integer(let range) = setting.kind, let (text, fromFlag) = try raw(setting) else {
            throw Problem(message: "\(name) has no value")
        }
        guard let number = ASCII.integer(text, in: range) else {
            throw Problem(message: "\(setting.source(fromFlag: fromFlag)) must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(text)'")
        }
        return number
    }

    /// One of a choice setting's words.
    func choice(_ name: String) throws(Problem) -> String {
        let setting = setting(name)
        guard case .choice(let words) = setting.kind, let (text, fromFlag) = try raw(setting) else {
            throw Problem(message: "\(name) has no value")
        }
        guard words.contains(text) else {
            throw Problem(message: "\(setting.source(fromFlag: fromFlag)) must be \(words.joined(separator: " or ")); got '\(text)'")
        }
        return text
    }

    /// Where a setting's value came from, for error messages: its flag when given, else its variable.
    func source(_ name: String) -> String {
        let setting = setting(name)
        return setting.source(fromFlag: setting.flag.map { flags[$0] != nil } ?? false)
    }

    /// A secret from its variable, or from the file its `_FILE` variable names (one trailing
    /// newline dropped, as `echo` writes it); nil when neither is set; both set is refused.
    func secret(_ variable: String) throws(Problem) -> String? {
        let fileVariable = variable + "_FILE"
        switch (environment[variable], environment[fileVariable]) {
        case (.some, .some):
            throw Problem(message: "set \(variable) or \(fileVariable), not both")
        case (let value?, nil):
            return value
        case (nil, let path?):
            guard let bytes = FileInput.read(path, limit: 1 << 20) else {
                throw Problem(message: "\(fileVariable): cannot read \(path)")
            }
            var text = String(decoding: bytes, as: UTF8.self)
            if text.hasSuffix("\r\n") { text.removeLast(1) } else if text.hasSuffix("\n") { text.removeLast() }
            return text
        case (nil, nil):
            return nil
        }
    }
}

/// Small files read whole (keys, secrets), refused beyond a limit.
enum FileInput {
    static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
            if bytes.count > limit { return nil }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
