import Glibc
import HTTPServer
import JWT
import RatingsAPI
import RatingsCore
import SQLiteStore

/// `ratings serve`: migrates, serves until SIGTERM/SIGINT, drains, exits 0.
enum ServeCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let server: ServerConfiguration
        let store: SQLiteStoreConfiguration
        let defaultScale: Scale
        let security: Security
        let options: Options
        switch Options.parse(arguments, known: ["host", "port", "database", "default-max-rating", "write-rate", "write-burst"],
                             command: "serve", usage: Usage.serve) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        do {
            var configuration = ServerConfiguration()
            configuration.host = options.value("host", env: "RATINGS_HOST", environment, default: configuration.host)
            configuration.port = try options.integer("port", env: "RATINGS_PORT", environment, default: configuration.port, range: 0...65535)
            server = configuration
            store = SQLiteStoreConfiguration(path: options.databasePath(environment))
            let maxRating = try options.integer("default-max-rating", env: "RATINGS_DEFAULT_MAX_RATING", environment,
                                                default: Scale.standard.maxRating, range: Scale.allowed)
            defaultScale = try Scale(maxRating: maxRating)
            security = try Security(options, environment)
        } catch let problem as Options.Problem {
            FileOutput.error("ratings serve: \(problem.message)\n\n\(Usage.serve)")
            return 2
        } catch {
            FileOutput.error("ratings serve: \(error)")
            return 2
        }
        return serve(server, store: store, defaultScale: defaultScale, security: security)
    }

    private static func serve(_ serverConfiguration: ServerConfiguration, store storeConfiguration: SQLiteStoreConfiguration,
                              defaultScale: Scale, security: Security) -> Int32 {
        let store: SQLiteRatingStore
        do {
            store = try SQLiteRatingStore(storeConfiguration)
        } catch {
            FileOutput.error("ratings serve: cannot open database \(storeConfiguration.path): \(error)")
            return 1
        }
        let languages: LanguageCatalog
        do {
            languages = try LanguageCatalog.bundled()
        } catch {
            FileOutput.error("ratings serve: a language file compiled into this binary is broken: \(error)")
            return 1
        }
        let serverMetrics = ServerMetrics()
        var apiConfiguration = APIConfiguration(languages: languages)
        apiConfiguration.defaultScale = defaultScale
        apiConfiguration.openConnections = { serverMetrics.openConnections }
        apiConfiguration.identityVerifier = security.verifier
        apiConfiguration.writeLimiter = security.limiter
        FileOutput.error(security.summary)
        let api = RatingsAPI(store: store, configuration: apiConfiguration)
        let server = HTTPServer(configuration: serverConfiguration, handler: api.handler, metrics: serverMetrics)
        server.drainOnTerminationSignals { signal in
            FileOutput.out("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), draining")
        }
        let port: Int
        do {
            port = try server.start()
        } catch {
            FileOutput.error("ratings serve: cannot listen on \(serverConfiguration.host):\(serverConfiguration.port): \(error)")
            return 1
        }
        let shownHost = serverConfiguration.host.contains(":") ? "[\(serverConfiguration.host)]" : serverConfiguration.host
        FileOutput.out("listening on http://\(shownHost):\(port) (database \(storeConfiguration.path), default maxRating \(defaultScale.maxRating))")
        server.waitUntilStopped()
        store.flush()
        FileOutput.out("stopped")
        return 0
    }
}
