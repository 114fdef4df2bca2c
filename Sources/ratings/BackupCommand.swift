import Platform
import PostgresStore
import SQLiteStore

/// `ratings backup`: a consistent copy of a SQLite database into a new file, while it serves.
enum BackupCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, command: Commands.backup, environment: environment) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        let source: String, target: String
        do throws(Options.Problem) {
            source = try options.text("database") ?? "ratings.sqlite"
            guard let to = try options.text("to"), !to.isEmpty else {
                throw Options.Problem(message: "give \(options.source("to")) FILE, the new file to write")
            }
            target = to
        } catch {
            StandardStreams.error("ratings backup: \(error.message)\n\n\(Commands.backup.usage)")
            return 2
        }
        guard !PostgresConfiguration.isURI(source) else {
            StandardStreams.error("ratings backup: \(source.prefix { $0 != ":" }):// databases are backed up with pg_dump (docs/operations.md, \"Backups\"); this command copies SQLite files")
            return 2
        }
        do {
            let summary = try SQLiteBackup.copy(from: source, to: target)
            let milliseconds = Int((summary.seconds * 1000).rounded())
            StandardStreams.out("backed up \(source) to \(target) in \(milliseconds) ms: \(summary.bytes) bytes, \(summary.items) items, "
                                + "\(summary.ratings) ratings, \(summary.reviews) reviews; serve it with ratings serve --database \(target)")
            return 0
        } catch {
            StandardStreams.error("ratings backup: \(error.description)")
            return error.isUsage ? 2 : 1
        }
    }
}
