import HTTPServer
import Platform

/// `ratings healthcheck`: exits 0 when `/healthz` answers 200.
enum HealthcheckCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, command: Commands.healthcheck, environment: environment) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        // Without a URL, the port `serve` would listen on: the same variable, the same default.
        let port = environment["RATINGS_PORT"] ?? String(ServerConfiguration().port)
        // A plain text setting never fails to read.
        let url = ((try? options.text("url")) ?? "").replacing("$RATINGS_PORT", with: port)
        do {
            let status = try HealthProbe.status(of: url)
            guard status == 200 else {
                StandardStreams.error("ratings healthcheck: \(url) answered \(status)")
                return 1
            }
            return 0
        } catch {
            StandardStreams.error("ratings healthcheck: \(error.description)")
            return 1
        }
    }
}
