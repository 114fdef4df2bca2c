// The `ratings` executable: reads flags and environment, then runs one command.
import Glibc

let environment = Environment.current
let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
switch arguments.first {
case "serve": code = ServeCommand.run(Array(arguments.dropFirst()), environment)
case "migrate": code = MigrateCommand.run(Array(arguments.dropFirst()), environment)
case "healthcheck": code = HealthcheckCommand.run(Array(arguments.dropFirst()), environment)
case "--help", "-h", "help": print(Usage.main); code = 0
case nil: FileOutput.error(Usage.main); code = 2
case let other?: FileOutput.error("ratings: unknown command '\(other)'\n\n\(Usage.main)"); code = 2
}
exit(code)
