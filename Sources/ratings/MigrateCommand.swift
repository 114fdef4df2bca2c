import Platform

/// `ratings migrate`: applies pending migrations and exits.
enum MigrateCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, command: Commands.migrate, environment: environment) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        let database: DatabaseChoice
        do {
            database = DatabaseChoice(try options.text("database") ?? "ratings.sqlite", poolSize: 1)
        } catch {
            StandardStreams.error("ratings migrate: \(error.message)")
            return 2
        }
        let path = database.description
        do {
            let applied = try database.migrate()
            StandardStreams.out(applied.isEmpty
                ? "database \(path) is up to date"
                : "applied \(applied.count) migration\(applied.count == 1 ? "" : "s") to \(path): \(applied.joined(separator: ", "))")
            return 0
        } catch {
            StandardStreams.error("ratings migrate: cannot migrate \(path): \(error)")
            return 1
        }
    }
}
