import HTTP1
import Platform
import RatingsCore

/// `ratings copy`: everything one database holds into another, of either engine, checked.
enum CopyCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, command: Commands.copy, environment: environment) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        let from: String, to: String, discarding: Bool
        do throws(Options.Problem) {
            guard let source = try options.text("from"), !source.isEmpty else {
                throw Options.Problem(message: "give \(options.source("from")) PATH|URI, the database to copy from")
            }
            guard let target = try options.text("to"), !target.isEmpty else {
                throw Options.Problem(message: "give \(options.source("to")) PATH|URI, the database to copy into")
            }
            (from, to) = (source, target)
            discarding = try options.choice("if-incomplete") == "discard"
        } catch {
            StandardStreams.error("ratings copy: \(error.message)\n\n\(Commands.copy.usage)")
            return 2
        }
        let source = DatabaseChoice(from, poolSize: 1), destination = DatabaseChoice(to, poolSize: 1)
        guard from != to else { return fail(DatabaseCopyError.sameDatabase(source.description)) }
        let started = SystemClock.monotonicSeconds()
        let reader: any CopySource, writer: any CopyDestination
        do {
            reader = try source.openCopySource()
        } catch {
            return fail(error, opening: source.description)
        }
        do {
            writer = try destination.openCopyDestination()
        } catch {
            return fail(error, opening: destination.description)
        }
        let rows: [String: Int]
        do {
            let copier = DatabaseCopier(source: reader, destination: writer, progress: CopyProgress(terminal: StandardStreams.errorIsTerminal))
            rows = try copier.run(marker: marker(from: source.description), discarding: discarding)
        } catch {
            // A terminal's progress line is open; the reason goes on a line of its own.
            if StandardStreams.errorIsTerminal { StandardStreams.errorText("\n") }
            return fail(error)
        }
        let counts = CopiedTables.all.map { "\($0.name) \(CopyProgress.grouped(rows[$0.name] ?? 0))" }.joined(separator: ", ")
        StandardStreams.out("copied \(source.description) to \(destination.description) in \(CopyProgress.seconds(SystemClock.monotonicSeconds() - started)): "
                            + "\(counts) rows; every item's count, sum and distribution match")
        return 0
    }

    /// The destination's incomplete-copy marker: where from and when.
    private static func marker(from source: String) -> String {
        var time = ""
        Timestamp.withRFC3339(milliseconds: SystemClock.wallMilliseconds()) { time = String(decoding: $0, as: UTF8.self) }
        return "a copy from \(source) begun at \(time)"
    }

    /// Says why the copy stopped; exit 2 for what the command line must change, 1 for a failure
    /// (a database that cannot be opened or written, as `serve` exits).
    private static func fail(_ error: any Error, opening database: String? = nil) -> Int32 {
        if let refusal = error as? DatabaseCopyError {
            StandardStreams.error("ratings copy: \(refusal)")
            return refusal.isUsage ? 2 : 1
        }
        if let database {
            StandardStreams.error("ratings copy: cannot open database \(database): \(error)")
        } else {
            StandardStreams.error("ratings copy: the copy stopped: \(error)")
        }
        return 1
    }
}
