import Foundation
import PackagePlugin

/// Compiles files the binary must carry into Swift source, so it runs without the source tree:
/// `migrations/<engine>/*.sql` into SQLiteStore and PostgresStore, `locales/*.json` into RatingsCore, `openapi.yaml` into
/// RatingsAPI, and the commit the build comes from into the executable.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let tool = try context.tool(named: "EmbedFilesTool").url
        let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(target.name).swift")
        switch target.name {
        case "SQLiteStore", "PostgresStore":
            let engine = target.name == "SQLiteStore" ? "sqlite" : "postgresql"
            let files = try Self.files(in: root.appending(path: "migrations").appending(path: engine), ending: "sql")
            return [.buildCommand(displayName: "Embedding \(files.count) migrations", executable: tool,
                                  arguments: ["files", "embeddedMigrationFiles", output.path] + files.map(\.path),
                                  inputFiles: files, outputFiles: [output])]
        case "RatingsCore":
            let files = try Self.files(in: root.appending(path: "locales"), ending: "json")
            return [.buildCommand(displayName: "Embedding \(files.count) language files", executable: tool,
                                  arguments: ["files", "embeddedLanguageFiles", output.path] + files.map(\.path),
                                  inputFiles: files, outputFiles: [output])]
        case "RatingsAPI":
            let spec = root.appending(path: "openapi.yaml")
            return [.buildCommand(displayName: "Embedding openapi.yaml", executable: tool,
                                  arguments: ["string", "embeddedOpenAPIDocument", output.path, spec.path],
                                  inputFiles: [spec], outputFiles: [output])]
        case "ratings":
            // The commit: HEAD and the ref it names are inputs, so a new commit rebuilds this file.
            let git = root.appending(path: ".git")
            let inputs = Self.gitInputs(git)
            return [.buildCommand(displayName: "Embedding the build commit", executable: tool,
                                  arguments: ["commit", "embeddedBuildCommit", output.path, git.path],
                                  environment: ["RATINGS_BUILD_COMMIT": ProcessInfo.processInfo.environment["RATINGS_BUILD_COMMIT"] ?? ""],
                                  inputFiles: inputs, outputFiles: [output])]
        default:
            return []
        }
    }

    /// `.git/HEAD`, the ref it points to and `packed-refs`, where they exist.
    private static func gitInputs(_ git: URL) -> [URL] {
        let head = git.appending(path: "HEAD")
        var inputs = [head, git.appending(path: "packed-refs")]
        if let text = try? String(contentsOf: head, encoding: .utf8), text.hasPrefix("ref: ") {
            inputs.append(git.appending(path: text.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The files of one folder with one extension, in name order.
    private static func files(in folder: URL, ending suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == suffix }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
