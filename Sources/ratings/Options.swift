import ASCIIKit

/// Flags of one command: `--name value` or `--name=value`, each flag at most once.
struct Options {
    /// Why the command line was refused.
    struct Problem: Error {
        let message: String
    }

    private(set) var values: [String: String] = [:]
    let wantsHelp: Bool

    /// Parses `arguments`, accepting only the flags in `known`.
    init(_ arguments: [String], known: Set<String>) throws(Problem) {
        var index = 0
        var help = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { help = true; continue }
            guard argument.hasPrefix("--") else { throw Problem(message: "unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard known.contains(name) else { throw Problem(message: "unknown option '--\(name)'") }
            if value == nil {
                guard index < arguments.count else { throw Problem(message: "option '--\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            guard values[name] == nil else { throw Problem(message: "option '--\(name)' is given twice") }
            values[name] = value
        }
        wantsHelp = help
    }

    /// What a command does with its command line: run with these options, or exit with a code
    /// (0 after printing help, 2 after a refused flag).
    enum Parsed {
        case run(Options)
        case exit(Int32)
    }

    /// Parses a command's flags, answering `--help` and refused flags the same way for every command.
    static func parse(_ arguments: [String], known: Set<String>, command: String, usage: String) -> Parsed {
        do {
            let options = try Options(arguments, known: known)
            if options.wantsHelp {
                FileOutput.out(usage)
                return .exit(0)
            }
            return .run(options)
        } catch {
            FileOutput.error("ratings \(command): \(error.message)\n\n\(usage)")
            return .exit(2)
        }
    }

    /// The flag's value, else the environment variable's, else the default.
    func value(_ name: String, env variable: String, _ environment: Environment, default fallback: String) -> String {
        values[name] ?? environment[variable] ?? fallback
    }

    /// `--database`, else `RATINGS_DATABASE`, else `ratings.sqlite` in the working directory:
    /// one rule, so `serve` and `migrate` open the same file.
    func databasePath(_ environment: Environment) -> String {
        value("database", env: "RATINGS_DATABASE", environment, default: "ratings.sqlite")
    }

    /// An integer setting within `range`, naming its source when it is refused.
    func integer(_ name: String, env variable: String, _ environment: Environment, default fallback: Int,
                 range: ClosedRange<Int>) throws(Problem) -> Int {
        let source = values[name] != nil ? "--\(name)" : variable
        let text = value(name, env: variable, environment, default: String(fallback))
        guard let number = ASCII.integer(text, in: range) else {
            throw Problem(message: "\(source) must be an integer from \(range.lowerBound) to \(range.upperBound); got '\(text)'")
        }
        return number
    }
}
