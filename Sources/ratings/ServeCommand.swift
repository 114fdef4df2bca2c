import Glibc
import HTTPServer
import Platform
import RatingsAPI
import RatingsApplication
import RatingsCore
import Webhooks

/// What `ratings serve` runs with, read from its flags and environment.
struct ServeSettings {
    var server = ServerConfiguration()
    var database: DatabaseChoice
    var defaultScale: Scale
    var logFormat: LogFormat
    var ranking: RankingSettings
    var reviewPageCache: Int
    var moderation: ModerationPolicy
    /// The webhooks file's endpoints, read at start; nil without `--webhooks`.
    var webhooks: WebhookEndpoints?
    var webhookRetentionDays: Int
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
        if let path = try options.text("webhooks") {
            do {
                webhooks = try WebhookEndpoints(path: path)
            } catch {
                throw Options.Problem(message: "\(options.source("webhooks")): \(error.description)")
            }
        }
        webhookRetentionDays = try options.integer("webhook-retention-days")
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
        let languages: LanguageCatalog
        do {
            languages = try LanguageCatalog.bundled()
        } catch {
            errors.write("ratings serve: a language file compiled into this binary is broken: \(error)")
            return 1
        }
        var database = settings.database
        if let endpoints = settings.webhooks { database = database.recording(OutboxRecorder(endpoints: endpoints)) }
        let store: any ReviewStore, closeStore: () -> Void
        do {
            (store, closeStore) = try database.openForServing(log: { errors.write($0) })
        } catch {
            errors.write("ratings serve: cannot open database \(settings.database.description): \(error)")
            return 1
        }
        let webhooks: (dispatcher: WebhookDispatcher, reloader: FileReloader)?
        do {
            webhooks = try settings.webhooks.map { endpoints in
                try startWebhooks(endpoints, store: store, bodies: EventBodies(languages: languages), retentionDays: settings.webhookRetentionDays,
                                  errors: errors)
            }
        } catch {
            errors.write("ratings serve: cannot start the webhooks' threads: \(error)")
            closeStore()
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
        apiConfiguration.webhooks = webhooks?.dispatcher
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
            stop(webhooks)
            closeStore()
            return 1
        }
        let rotation = settings.security.keyFile.flatMap { file in
            settings.security.verifier.map { KeyRotation.start(file: file, verifier: $0, errors: errors) }
        }
        defer { rotation?.stop() }
        let host = settings.server.host.contains(":") ? "[\(settings.server.host)]" : settings.server.host
        say("listening on http://\(host):\(port) (database \(settings.database.description), default maxRating \(settings.defaultScale.maxRating))", format: format)
        server.waitUntilStopped()
        stop(webhooks)
        closeStore()
        return 0
    }

    /// Starts delivering the outbox, and reading the webhooks file again when it changes.
    private static func startWebhooks(_ endpoints: WebhookEndpoints, store: any ReviewStore, bodies: EventBodies, retentionDays: Int,
                                      errors: ErrorOutput) throws -> (dispatcher: WebhookDispatcher, reloader: FileReloader) {
        var settings = WebhookDispatcher.Settings()
        settings.retentionSeconds = Int64(retentionDays) * 86_400
        let dispatcher = WebhookDispatcher(store: store, endpoints: endpoints, settings: settings, render: { bodies.body(of: $0) }) {
            errors.write($0)
        }
        try dispatcher.start()
        let reloader = FileReloader(path: endpoints.path, label: "ratings.webhooks") { reason in
            do {
                let list = try endpoints.reload()
                errors.write("webhooks: read \(endpoints.path) again (\(reason)); endpoints in force: \(list.map(\.id).joined(separator: ", "))",
                             level: .info)
            } catch {
                errors.write("webhooks: \(error); the endpoints in force are kept")
            }
        }
        errors.write("webhooks: delivering to \(endpoints.all.map(\.id).joined(separator: ", ")) from \(endpoints.path)", level: .info)
        return (dispatcher, reloader)
    }

    private static func stop(_ webhooks: (dispatcher: WebhookDispatcher, reloader: FileReloader)?) {
        webhooks?.reloader.stop()
        webhooks?.dispatcher.stop()
    }
}
