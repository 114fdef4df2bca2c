import Foundation
import TestSupport
import Testing

@Suite("Display, operations, methods and unknown paths")
struct DisplayAndOperationsTests {
    @Test("display rounds, clamps and speaks", arguments: [
        ("value=3.3&max=5", "3.5", "3.5 out of 5 stars"), ("value=-1&max=5", "0", "Not rated"), ("value=7&max=5", "5", "5 out of 5 stars"),
        ("value=1e400&max=5", "5", "5 out of 5 stars"), ("value=3.25", "3.5", "3.5 out of 5 stars"), ("value=2.74", "2.5", "2.5 out of 5 stars"),
        ("value=1&max=1", "1", "1 out of 1 star"), ("value=0.5&max=3", "0.5", "0.5 out of 3 stars"), ("max=5&value=4.2", "4", "4 out of 5 stars"),
        ("value=1e%2B0&max=2", "1", "1 out of 2 stars"),
    ])
    func displays(query: String, value: String, spoken: String) async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display?\(query)")
            #expect(response.status == 200)
            #expect(response.text.hasPrefix("{\"value\":\(value),"))
            #expect(object(response)["accessibilityValue"] as? String == spoken)
            #expect(response.header("etag") != nil)
        }
    }

    @Test("each star's symbol and fill, full, half, partial and empty")
    func symbolsAndFill() async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display?value=3.3&max=5")
            #expect(object(response)["symbols"] as? [String] == ["star.fill", "star.fill", "star.fill", "star.leadinghalf.filled", "star"])
            #expect(object(response)["fill"] as? [Double] == [1, 1, 1, 0.3, 0])
            #expect(response.text.contains(#""fill":[1,1,1,0.3,0]"#))
        }
    }

    @Test("a display asked for again, in another spelling or another language, is the one rendered for it")
    func repeatedDisplays() async throws {
        try await withAPI { service in
            let first = service.request("GET", "/v1/display?value=3.3&max=5")
            let again = service.request("GET", "/v1/display?value=3.3&max=5")
            let spelled = service.request("GET", "/v1/display?value=3.30&max=5")
            let german = service.request("GET", "/v1/display?value=3.3&max=5", headers: ["Accept-Language": "de"])
            let otherScale = service.request("GET", "/v1/display?value=3.3&max=4")
            #expect(again.text == first.text && again.header("etag") == first.header("etag"))
            #expect(spelled.text == first.text && spelled.header("etag") == first.header("etag"))
            #expect(german.header("content-language") == "de")
            #expect(german.header("etag") != first.header("etag"))
            #expect(object(german)["accessibilityValue"] as? String != object(first)["accessibilityValue"] as? String)
            #expect(object(otherScale)["symbols"] as? [String] == ["star.fill", "star.fill", "star.fill", "star.leadinghalf.filled"])
        }
    }

    @Test("bad display queries are 400", arguments: [
        "", "?value=", "?value=nan", "?value=inf", "?value=3,5", "?value=0x5", "?value=3&max=0", "?value=3&max=11",
        "?value=3&max=five", "?value=3&max=+5", "?value=3&max=5.0", "?value=3&max=", "?value=1&value=2", "?value=3&max=05x",
        "?value=3&max=5&max=5", "?value=3.", "?value=.5", "?value=03.5", "?value=3.5x",
    ])
    func badDisplayQueries(query: String) async throws {
        try await withAPI { service in
            let response = service.request("GET", "/v1/display\(query)")
            #expect(response.status == 400, "\(query)")
            #expect(response.header("content-type") == "application/problem+json")
            #expect(!detail(response).isEmpty)
        }
    }

    @Test("health, readiness, metrics and the spec", arguments: TestEngine.all)
    func operations(engine: TestEngine) async throws {
        try await withAPI(engine) { service in
            #expect(service.request("GET", "/healthz").text == #"{"status":"ok"}"#)
            #expect(service.request("GET", "/readyz").status == 200)
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 3}"#)
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 4}"#)
            _ = service.request("DELETE", "/v1/items/i/ratings/r")
            _ = service.request("DELETE", "/v1/items/i/ratings/r")
            _ = service.request("BREW", "/v1/items/i")
            let metrics = service.request("GET", "/metrics")
            #expect(metrics.header("content-type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = metrics.text
            #expect(text.contains(#"ratings_http_requests_total{route="/v1/items/{itemId}/ratings/{raterId}",method="PUT",status="201"} 1"#))
            #expect(text.contains(#"ratings_http_requests_total{route="/v1/items/{itemId}/ratings/{raterId}",method="PUT",status="200"} 1"#))
            #expect(text.contains(#"ratings_http_requests_total{route="/v1/items/{itemId}",method="other",status="405"} 1"#))
            #expect(text.contains("ratings_ratings_written_total 2"))
            #expect(text.contains("ratings_ratings_cleared_total 1"))
            #expect(text.contains("# TYPE ratings_http_request_duration_seconds histogram"))
            #expect(text.contains(#"ratings_http_request_duration_seconds_count{route="/healthz"} 1"#))
            #expect(!text.contains("route=\"/v1/items/i"), "routes are patterns, never raw paths")
            let spec = service.request("GET", "/openapi.yaml")
            #expect(spec.status == 200 && spec.text.hasPrefix("openapi: 3.1"))
        }
    }

    @Test("the metrics count the server's open connections, the one asking included")
    func openConnections() async throws {
        try await withAPI(.memory, over: .socket) { service in
            let client = try RawHTTPClient(port: try #require(service.port))
            client.send("GET /metrics HTTP/1.1\nHost: t\n\n")
            let text = try client.readResponse().text
            #expect(text.range(of: #"ratings_open_connections [1-9]"#, options: .regularExpression) != nil, "\(text)")
        }
    }

    @Test("405 carries exactly the route's methods", arguments: [
        ("POST", "/v1/items/i", "GET, HEAD, PUT"), ("DELETE", "/v1/items/i", "GET, HEAD, PUT"),
        ("POST", "/v1/items/i/ratings/r", "GET, HEAD, PUT, DELETE"), ("PATCH", "/v1/items/i/ratings/r", "GET, HEAD, PUT, DELETE"),
        ("PUT", "/v1/items", "GET, HEAD"), ("DELETE", "/v1/display", "GET, HEAD"), ("POST", "/healthz", "GET, HEAD"),
        ("PUT", "/metrics", "GET, HEAD"), ("OPTIONS", "/readyz", "GET, HEAD"), ("POST", "/openapi.yaml", "GET, HEAD"),
    ])
    func methodNotAllowed(method: String, path: String, allow: String) async throws {
        try await withAPI { service in
            let response = service.request(method, path)
            #expect(response.status == 405)
            #expect(response.header("allow") == allow)
            #expect(response.header("content-type") == "application/problem+json")
        }
    }

    @Test("HEAD is answered on every GET route, as GET", arguments: TestEngine.all, [
        "/v1/items/i", "/v1/items/i/ratings/r", "/v1/items?ids=a,b", "/v1/display?value=2", "/healthz", "/readyz", "/metrics", "/openapi.yaml",
    ])
    func headEverywhere(engine: TestEngine, path: String) async throws {
        try await withAPI(engine) { service in
            _ = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 3}"#)
            let get = service.request("GET", path)
            let head = service.request("HEAD", path)
            #expect(head.status == get.status && get.status == 200)
            #expect(head.body == get.body || path == "/metrics", "the API answers HEAD as GET; the server drops the body")
        }
    }

    @Test("unknown paths are 404 problem+json", arguments: ["/", "/v1", "/v2/items/a", "/v1/items/a/ratings", "/v1/items/a/ratings/b/c", "/favicon.ico"])
    func unknownPaths(path: String) async throws {
        try await withAPI { service in
            let response = service.request("GET", path)
            #expect(response.status == 404)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(detail(response).contains("/v1/items"))
        }
    }
}
