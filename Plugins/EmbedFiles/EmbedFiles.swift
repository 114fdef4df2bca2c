import Foundation
import PackagePlugin

/// Compiles files the binary must carry into Swift source, so it runs without the source tree:
/// `migrations/*.sql` into SQLiteStore, `locales/*.json` into RatingsCore, `openapi.yaml` into
/// RatingsAPI.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let tool = try context.tool(named: "EmbedFilesTool").url
        let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(target.name).swift")
        switch target.name {
        case "SQLiteStore":
            let files = try Self.files(in: root.appending(path: "migrations"), ending: "sql")
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
        default:
            return []
        }
    }

    /// The files of one folder with one extension, in name order.
    private static func files(in folder: URL, ending suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == suffix }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
