import Foundation
import Testing
import TestSupport

/// The repository's root, found from this file's place in it.
private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// Every Markdown file of the repository, relative to its root (build and tool folders aside).
private func markdownFiles() -> [String] {
    let skipped: Set<String> = [".build", ".venv-tools", ".git", ".swiftpm"]
    var found: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let path = enumerator?.nextObject() as? String {
        if skipped.contains(path.split(separator: "/").first.map(String.init) ?? "") { enumerator?.skipDescendants(); continue }
        if path.hasSuffix(".md") { found.append(path) }
    }
    return found.sorted()
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens.
private func anchor(_ heading: String) -> String {
    String(heading.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
    })
}

private func anchors(in text: String) -> Set<String> {
    Set(text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
        anchor(line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces))
    })
}

/// Relative link targets of a Markdown text: `[text](target)`, outside code blocks and spans.
private func relativeLinks(in text: String) -> [String] {
    var links: [String] = []
    var inFence = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") { inFence.toggle(); continue }
        if inFence { continue }
        let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        var rest = Substring(prose)
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: ")") else { break }
            let target = String(after[..<close])
            if !target.contains("://"), !target.hasPrefix("mailto:") { links.append(target) }
            rest = after[close...]
        }
    }
    return links
}

@Suite("The documentation stays true")
struct DocumentationTests {
    @Test("every relative link of every Markdown file points at a file, folder or heading that exists")
    func relativeLinksResolve() throws {
        let files = markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/api.md"))
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            let folder = URL(fileURLWithPath: root + "/" + file).deletingLastPathComponent()
            for link in relativeLinks(in: text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? URL(fileURLWithPath: root + "/" + file) : folder.appendingPathComponent(parts[0]).standardizedFileURL
                #expect(target.path.hasPrefix(root + "/"), "\(file): \(link) leaves the repository")
                #expect(FileManager.default.fileExists(atPath: target.path), "\(file): \(link) points at nothing")
                if parts.count == 2, target.pathExtension == "md", let linked = try? String(contentsOf: target, encoding: .utf8) {
                    #expect(anchors(in: linked).contains(parts[1]), "\(file): \(link) names no heading of \(target.lastPathComponent)")
                }
            }
        }
    }

    @Test("every console example in the README and docs/ is what a fresh server prints now")
    func examplesMatchAFreshRun() throws {
        let check = try Subprocess(["/usr/bin/env", "python3", root + "/scripts/examples.py", "--check", "--binary", RatingsProcess.binaryPath],
                                   environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], directory: root)
        let status = check.waitForExit(timeout: 180)
        #expect(status == 0, "scripts/examples.py --check failed:\n\(check.stdout)\n\(check.stderr)")
    }

    @Test("every language file's CLDR part is what scripts/generate-locales.py writes from the pinned Babel")
    func languageFilesAreGenerated() throws {
        let python = root + "/.venv-tools/bin/python"
        try #require(FileManager.default.isExecutableFile(atPath: python), "no \(python): run scripts/setup.sh --tests, which installs Babel there")
        let check = try Subprocess([python, root + "/scripts/generate-locales.py", "--check"], environment: [:], directory: root)
        let status = check.waitForExit(timeout: 120)
        #expect(status == 0, "scripts/generate-locales.py --check failed:\n\(check.stdout)\n\(check.stderr)")
    }

    @Test("the README stays short and names the two set-up commands")
    func readmeIsShort() throws {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
        #expect(readme.contains("scripts/serve.sh") && readme.contains("scripts/test.sh"))
    }
}
