// Build tool: writes the given .sql files as one Swift array of `Migration` values.
// Usage: EmbedMigrationsTool OUTPUT.swift FILE.sql...
import Foundation

/// Writes `text` as a Swift string literal, escaping everything that is not plain printable ASCII.
func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case " "..."~": out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return out + "\""
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedMigrationsTool OUTPUT.swift FILE.sql...\n".utf8))
    exit(2)
}
var source = "// Generated from migrations/*.sql by the EmbedMigrations plugin. Do not edit.\n"
source += "let embeddedMigrations: [Migration] = [\n"
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path), let sql = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedMigrationsTool: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    source += "    Migration(name: \(swiftLiteral(url.lastPathComponent)), sql: \(swiftLiteral(sql))),\n"
}
source += "]\n"
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("EmbedMigrationsTool: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
