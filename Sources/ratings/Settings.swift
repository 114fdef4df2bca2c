/// One setting of a command: the flag that sets it, the environment variable the flag
/// overrides, its default, and what it means. Commands are parsed from these tables and their
/// help is written from them, so no flag can be parsed without being documented, or the reverse.
struct Setting: Sendable {
    /// What values the setting takes.
    enum Kind: Sendable {
        /// Any text.
        case text
        /// A decimal integer in the range.
        case integer(ClosedRange<Int>)
        /// One of the listed words.
        case choice([String])
        /// A secret: from the variable, or from the file named by the variable with `_FILE`
        /// appended (the convention of official container images, for Docker and Kubernetes secrets).
        case secret
        /// Text that may carry a secret (a URI with a password): like `.text`, and like `.secret`
        /// also from the file `<VARIABLE>_FILE` names.
        case textOrSecret
    }

    /// The flag without its dashes (`port`); nil for settings read from the environment only.
    let flag: String?
    /// The environment variable (`RATINGS_PORT`).
    let variable: String
    /// The value's name in the synopsis (`P`).
    let placeholder: String
    let kind: Kind
    /// The default as text; nil when the setting is off unless given.
    let defaultValue: String?
    /// One line saying what it does.
    let summary: String

    init(_ flag: String?, _ variable: String, _ placeholder: String, _ kind: Kind, default defaultValue: String?, _ summary: String) {
        self.flag = flag
        self.variable = variable
        self.placeholder = placeholder
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// How an error message names where a value came from.
    func source(fromFlag: Bool) -> String { fromFlag ? "--\(flag ?? variable)" : variable }
}

/// A subcommand of `ratings`: its name, what it does and its settings.
struct Command: Sendable {
    let name: String
    /// One line for the command list.
    let summary: String
    /// Paragraphs after the options in `ratings NAME --help`.
    let details: String
    let settings: [Setting]

    /// The setting with this flag.
    func setting(flag: String) -> Setting? { settings.first { $0.flag == flag } }

    /// `ratings NAME --help`, written from the settings table.
    var usage: String {
        let flags = settings.filter { $0.flag != nil }
        let synopsis = flags.map { "[--\($0.flag!) \($0.placeholder)]" }
        var lines = ["Usage: ratings \(name) " + Self.wrap(synopsis, indent: "ratings \(name) ".count + 7), "", summary, ""]
        if !flags.isEmpty {
            lines.append("Options (each overrides its environment variable):")
            let width = flags.map { "--\($0.flag!) \($0.placeholder)".count }.max() ?? 0
            for setting in flags {
                let left = "--\(setting.flag!) \(setting.placeholder)"
                lines.append("  " + column(left, width + 2) + Self.explain(setting))
            }
        }
        let environmentOnly = settings.filter { $0.flag == nil }
        if !environmentOnly.isEmpty {
            lines += ["", "Environment only:"]
            let width = environmentOnly.map(\.variable.count).max() ?? 0
            for setting in environmentOnly {
                lines.append("  " + column(setting.variable, width + 2) + setting.summary)
            }
        }
        if !details.isEmpty { lines += ["", details] }
        return lines.joined(separator: "\n")
    }

    private static func explain(_ setting: Setting) -> String {
        var text = setting.summary + " (" + setting.variable
        if let value = setting.defaultValue { text += ", default \(value)" }
        switch setting.kind {
        case .integer(let range): text += "; \(range.lowerBound) to \(range.upperBound)"
        case .choice(let words): text += "; \(words.joined(separator: " or "))"
        case .text, .secret: break
        case .textOrSecret: text += "; or \(setting.variable)_FILE, a file holding it"
        }
        return text + ")."
    }

    private static func wrap(_ words: [String], indent: Int) -> String {
        var lines: [String] = [], line = ""
        for word in words {
            if !line.isEmpty && line.count + word.count + 1 > 100 - indent {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}

/// `text` left-aligned in a column of `width` characters (or longer, never cut).
func column(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}
