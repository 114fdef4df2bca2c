import SQLiteStore

/// `ratings migrate`: applies pending migrations and exits.
enum MigrateCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, known: ["database"])
        } catch {
            FileOutput.error("ratings migrate: \(error.message)\n\n\(Usage.migrate)")
            return 2
        }
        if options.wantsHelp { FileOutput.out(Usage.migrate); return 0 }
        let path = options.value("database", env: "RATINGS_DATABASE", environment, default: "ratings.sqlite")
        do {
            let applied = try SQLiteRatingStore.migrate(SQLiteStoreConfiguration(path: path))
            FileOutput.out(applied.isEmpty
                ? "database \(path) is up to date"
                : "applied \(applied.count) migration\(applied.count == 1 ? "" : "s") to \(path): \(applied.joined(separator: ", "))")
            return 0
        } catch {
            FileOutput.error("ratings migrate: cannot migrate \(path): \(error)")
            return 1
        }
    }
}
