import Foundation
import HTTP1
@testable import RatingsAPI
import TestSupport
import Testing

@Suite("The route table is the one declaration of every route")
struct RouteTableTests {
    /// The paths of `openapi.yaml` and the methods each declares, read from its `paths:` block.
    private static func documentedRoutes() throws -> [String: Set<String>] {
        let spec = try String(contentsOfFile: sourceRoot + "/openapi.yaml", encoding: .utf8)
        var routes: [String: Set<String>] = [:]
        var inPaths = false, current: String?
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty && !line.hasPrefix(" ") { break } // the next top-level key
            if line.hasPrefix("  /") && line.hasSuffix(":") && !line.hasPrefix("   ") {
                current = String(line.dropFirst(2).dropLast())
                routes[current!] = []
            } else if let path = current, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch", "head", "options"].contains(key) { routes[path]?.insert(key.uppercased()) }
            }
        }
        return routes
    }

    @Test("every route and method of the table is in openapi.yaml, and every one there is in the table")
    func tableMatchesSpec() throws {
        let documented = try Self.documentedRoutes()
        let table = Dictionary(uniqueKeysWithValues: RatingsAPI.routeTable.map { route in
            (route.pattern.description, Set(route.methods.filter { $0 != "HEAD" }))
        })
        #expect(!documented.isEmpty)
        #expect(table == documented)
    }

    @Test("a 404's detail names every path of the table, and only those")
    func notFoundNamesEveryRoute() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v2/nothing")
            #expect(response.status == 404)
            let text = detail(response)
            for route in RatingsAPI.routeTable { #expect(text.contains(route.pattern.description), "\(route.pattern.description) missing from: \(text)") }
            #expect(text.hasSuffix("The paths served are \(RatingsAPI.routeTable.map(\.pattern.description).joined(separator: ", "))."))
        }
    }

    @Test("Allow lists the declared methods with HEAD beside GET; HEAD reaches the GET endpoint")
    func allowAndHead() {
        let rating = RatingsAPI.routeTable.first { $0.pattern.description == "/v1/items/{itemId}/ratings/{raterId}" }
        #expect(rating?.allow == "GET, HEAD, PUT, DELETE")
        #expect(rating?.endpoint(for: "HEAD") != nil && rating?.endpoint(for: "POST") == nil)
        #expect(rating?.pattern.parameters == [.itemId, .raterId])
    }

    @Test("patterns match whole segments and capture parameters in path order")
    func patterns() {
        func matches(_ pattern: RoutePattern, _ path: String) -> Bool { pattern.matches(RequestTarget(path)) }
        let pattern = RoutePattern("/v1/items/{itemId}/ratings/{raterId}")
        #expect(matches(pattern, "/v1/items/a/ratings/b"))
        #expect(pattern.position(of: .itemId) == 2 && pattern.position(of: .raterId) == 4)
        #expect(RoutePattern("/v1/items/{itemId}").position(of: .raterId) == nil)
        // Literals are compared as they decode.
        #expect(matches(pattern, "/v1/%69tems/a/ratings/b") && !matches(pattern, "/v1/%69tem/a/ratings/b"))
        #expect(!matches(pattern, "/v1/items/a/ratings"))
        #expect(!matches(pattern, "/v1/items/a/rating/b"))
        #expect(!matches(pattern, "/v1/items/a/ratings/b/"))
        #expect(matches(RoutePattern("/healthz"), "/healthz"))
        #expect(!matches(RoutePattern("/healthz"), "/healthz/") && !matches(RoutePattern("/healthz"), "/healthy"))
    }
}

/// The package's root folder, found from this file's path (tests run from anywhere).
let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
