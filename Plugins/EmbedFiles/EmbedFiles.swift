import Foundation
import PackagePlugin

/// Compiles files the binary must carry into Swift source, so it runs without the source tree:
/// `migrations/*.sql` into SQLiteStore, `openapi.yaml` into RatingsAPI.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let root = context.package.directoryURL
        let tool = try context.tool(named: "EmbedFilesTool").url
        let output = context.pluginWorkDirectoryURL.appending(path: "Embedded\(target.name).swift")
        switch target.name {
        case "SQLiteStore":
            let files = try FileManager.default
                .contentsOfDirectory(at: root.appending(path: "migrations"), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "sql" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            return [.buildCommand(displayName: "Embedding \(files.count) migrations", executable: tool,
                                  arguments: ["migrations", output.path] + files.map(\.path),
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
}
