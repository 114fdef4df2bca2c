// The `ratings` executable: reads flags and environment, then runs one command.
import Glibc
import Platform

let environment = Environment.current
let arguments = Array(CommandLine.arguments.dropFirst())
let code: Int32
switch arguments.first {
case "serve": code = ServeCommand.run(Array(arguments.dropFirst()), environment)
case "migrate": code = MigrateCommand.run(Array(arguments.dropFirst()), environment)
case "copy": code = CopyCommand.run(Array(arguments.dropFirst()), environment)
case "backup": code = BackupCommand.run(Array(arguments.dropFirst()), environment)
case "healthcheck": code = HealthcheckCommand.run(Array(arguments.dropFirst()), environment)
case "token": code = TokenCommand.run(Array(arguments.dropFirst()), environment)
case "--version", "version": StandardStreams.out("ratings \(BuildInfo.version) (commit \(BuildInfo.commit))"); code = 0
case "--help", "-h", "help": StandardStreams.out(Commands.usage); code = 0
case nil: StandardStreams.error(Commands.usage); code = 2
case let other?: StandardStreams.error("ratings: unknown command '\(other)'\n\n\(Commands.usage)"); code = 2
}
exit(code)
