import HTTPServer

/// `ratings healthcheck`: exits 0 when `/healthz` answers 200.
enum HealthcheckCommand {
    static func run(_ arguments: [String], _ environment: Environment) -> Int32 {
        let options: Options
        switch Options.parse(arguments, known: ["url"], command: "healthcheck", usage: Usage.healthcheck) {
        case .exit(let code): return code
        case .run(let parsed): options = parsed
        }
        // The port `serve` would listen on: the same variable, the same default.
        let port = environment["RATINGS_PORT"] ?? String(ServerConfiguration().port)
        let url = options.value("url", env: "RATINGS_HEALTHCHECK_URL", environment, default: "http://127.0.0.1:\(port)/healthz")
        do {
            let status = try HealthProbe.status(of: url)
            guard status == 200 else {
                FileOutput.error("ratings healthcheck: \(url) answered \(status)")
                return 1
            }
            return 0
        } catch {
            FileOutput.error("ratings healthcheck: \(error.description)")
            return 1
        }
    }
}
