import Glibc
import HTTPServer
import Platform
import RatingsAPI
import RatingsApplication
import RatingsCore

/// What `ratings serve` runs with, read from its flags and environment.
struct ServeSettings {
    var server = ServerConfiguration()
    var database: DatabaseChoice
    var defaultScale: Scale
    var logFormat: LogFormat
    var ranking: RankingSettings
    var reviewPageCache: Int
    var moderation: ModerationPolicy
    var security: Security

    init(_ options: Options) throws {
        server.host = try options.text("host") ?? server.host
        // Checked before anything starts, so a bad address is a clear exit 2, not a failure after
        // the start-up notes.
        guard ServerConfiguration.canBind(host: server.host) else {
            throw Options.Problem(message: "\(options.source("host")) must be an IPv4 or IPv6 address (such as 127.0.0.1, 0.0.0.0 or ::) or localhost; got '\(server.host)'")
        }
        server.port = try options.integer("port")
        server.maxConnectionsPerAddress = try options.integer("max-connections-per-address")
        switch RankingSettings.parse(prior: try options.text("ranking-prior") ?? "", weight: try options.integer("ranking-weight")) {
        case .success(let settings): ranking = settings
        case .failure:
            throw Options.Problem(message: "\(options.source("ranking-prior")) must be a decimal from 0 to 1 with at most \(RankingSettings.priorDecimals) decimals, such as 0.5; got '\(try options.text("ranking-prior") ?? "")'")
        }
        let databaseText = try options.text("database") ?? "ratings.sqlite"
        guard !databaseText.isEmpty else {
            throw Options.Problem(message: "\(options.source("database")) is empty; give a SQLite file path (such as ratings.sqlite) or a postgresql:// URI")
        }
        database = DatabaseChoice(databaseText, poolSize: try options.integer("database-pool"), ranking: ranking)
        defaultScale = try Scale(maxRating: options.integer("default-max-rating"))
        logFormat = LogFormat(rawValue: try options.choice("log-format")) ?? .text
        reviewPageCache = try options.integer("review-page-cache")
        moderation = ModerationPolicy(mode: ModerationMode(rawValue: try options.choice("review-moderation")) ?? .post,
                                      flagThreshold: try options.integer("review-flag-threshold"))
        security = try Security(options)
    }
}

/// `ratings serve`: migrates, serves until SIGTERM/SIGINT, drains, exits 0.
enum ServeCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let settings: ServeSettings
        switch Options.parse(arguments, command: Commands.serve, environment: environment) {
        case .exit(let code):
            return code
        case .run(let options):
            do {
                settings = try ServeSettings(options)
            } catch let problem as Options.Problem {
                StandardStreams.error("ratings serve: \(problem.message)\n\n\(Commands.serve.usage)")
                return 2
            } catch {
                StandardStreams.error("ratings serve: \(error)")
                return 2
            }
        }
        return serve(settings)
    }

    private static func serve(_ settings: ServeSettings) -> Int32 {
        let errors: ErrorOutput
        do {
            errors = try ErrorOutput(format: settings.logFormat)
        } catch {
            StandardStreams.error("ratings serve: cannot start the error log's thread: \(error)")
            return 1
        }
        let code = serve(settings, errors: errors)
        errors.close()
        if code == 0 { say("stopped", format: settings.logFormat) }
        return code
    }

    /// One of the program's own lines on standard output, beside the access log and in its format.
    private static func say(_ text: String, format: LogFormat) {
        StandardStreams.out(LogLine.now(text, level: .info, format: format))
    }

    /// Serves until stopped; every line for standard error goes through `errors`.
    private static func serve(_ settings: ServeSettings, errors: ErrorOutput) -> Int32 {
        let store: any ReviewStore, closeStore: () -> Void
        do {
            (store, closeStore) = try settings.database.openForServing(log: { errors.write($0) })
        } catch {
            errors.write("ratings serve: cannot open database \(settings.database.description): \(error)")
            return 1
        }
        let languages: LanguageCatalog
        do {
            languages = try LanguageCatalog.bundled()
        } catch {
            errors.write("ratings serve: a language file compiled into this binary is broken: \(error)")
            return 1
        }
        var serverConfiguration = settings.server
        serverConfiguration.errorLog = { errors.write($0) }
        var apiConfiguration = APIConfiguration(languages: languages)
        apiConfiguration.defaultScale = settings.defaultScale
        apiConfiguration.identityVerifier = settings.security.verifier
        apiConfiguration.writeLimiter = settings.security.limiter
        apiConfiguration.logFormat = settings.logFormat
        apiConfiguration.ranking = settings.ranking
        apiConfiguration.reviewPageCache = settings.reviewPageCache
        apiConfiguration.moderation = settings.moderation
        // The API formats its lines itself, with the request id.
        apiConfiguration.errorLog = { errors.writeFormatted($0) }
        apiConfiguration.errorLogThrottle = errors.throttle
        for note in settings.security.notes { errors.write(note.text, level: note.level) }
        let server = RatingsApplication.make(store: store, api: apiConfiguration, server: serverConfiguration).server
        let format = settings.logFormat
        server.drainOnTerminationSignals { signal in
            say("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), draining", format: format)
        }
        let port: Int
        do {
            port = try server.start()
        } catch {
            errors.write("ratings serve: cannot listen on \(settings.server.host):\(settings.server.port): \(error)")
            closeStore()
            return 1
        }
        let rotation = settings.security.keyFile.flatMap { file in
            settings.security.verifier.map { KeyRotation(file: file, verifier: $0, errors: errors) }
        }
        defer { rotation?.stop() }
        let host = settings.server.host.contains(":") ? "[\(settings.server.host)]" : settings.server.host
        say("listening on http://\(host):\(port) (database \(settings.database.description), default maxRating \(settings.defaultScale.maxRating))", format: format)
        server.waitUntilStopped()
        closeStore()
        return 0
    }
}
