import Foundation
import TestSupport
import Testing

@Suite("The service wired as in production: a real socket, the API and a real SQLite file")
struct ServiceOverSocketTests {
    @Test("submit, read, batch and clear through the wire and the file; HEAD drops the body, 304 carries the ETag")
    func roundTrip() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            #expect(service.request("PUT", "/v1/items/dinner-42/ratings/u-17", json: #"{"stars": 4}"#).status == 201)
            #expect(service.request("PUT", "/v1/items/dinner-42/ratings/u-18", json: #"{"stars": 3}"#).status == 201)
            let get = service.request("GET", "/v1/items/dinner-42")
            #expect(get.status == 200 && object(get)["count"] as? Int == 2 && object(get)["average"] as? Double == 3.5)
            #expect(get.header("content-length") == String(get.body.count) && get.header("date") != nil)
            #expect(get.header("x-request-id") != nil)
            let head = service.request("HEAD", "/v1/items/dinner-42")
            #expect(head.status == 200 && head.body.isEmpty && head.header("content-length") == String(get.body.count))
            let etag = try #require(get.header("etag"))
            let cached = service.request("GET", "/v1/items/dinner-42", headers: ["If-None-Match": etag])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.header("etag") == etag)
            let batch = service.request("GET", "/v1/items?ids=dinner-42,other")
            #expect((object(batch)["items"] as? [[String: Any]])?.map { $0["count"] as? Int } == [2, 0])
            let cleared = service.request("DELETE", "/v1/items/dinner-42/ratings/u-17")
            #expect(object(cleared)["cleared"] as? Bool == true)
            #expect(service.request("GET", "/v1/items/dinner-42/ratings/u-17").status == 404)
            #expect(object(service.request("GET", "/v1/items/dinner-42"))["count"] as? Int == 1)
        }
    }

    @Test("a display value of thirty digits is clamped to the scale, and the server goes on serving")
    func longDisplayValue() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            let digits = String(repeating: "9", count: 30)
            for query in ["value=\(digits)&max=5", "value=\(digits).5&max=5", "value=1\(String(repeating: "0", count: 25))&max=5"] {
                let response = service.request("GET", "/v1/display?\(query)")
                #expect(response.status == 200, "\(query)")
                #expect(object(response)["value"] as? Double == 5, "\(query)")
                #expect(object(response)["accessibilityValue"] as? String == "5 out of 5 stars", "\(query)")
            }
            let refused = service.request("GET", "/v1/display?value=0\(digits)&max=5")
            #expect(refused.status == 400 && refused.text.contains("value"))
            #expect(service.request("GET", "/v1/display?value=3.5&max=5").status == 200)
        }
    }

    @Test("a request target in absolute form is served like its origin form")
    func absoluteFormTarget() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            _ = service.request("PUT", "/v1/items/abs/ratings/r", json: #"{"stars": 2}"#)
            let response = try RawHTTPClient.exchange(port: try #require(service.port), "GET http://ratings.example:8080/v1/items/abs HTTP/1.1\n\n")
            #expect(response.status == 200 && object(response)["count"] as? Int == 1)
        }
    }

    @Test("a chunked body is accepted")
    func chunkedBody() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            let client = try RawHTTPClient(port: try #require(service.port))
            client.send("PUT /v1/items/i/ratings/r HTTP/1.1\nHost: t\nContent-Type: application/json\nTransfer-Encoding: chunked\n\n6\n{\"star\n6\ns\": 5}\n0\n\n")
            let response = try client.readResponse()
            #expect(response.status == 201)
            #expect(object(response)["stars"] as? Int == 5)
        }
    }

    @Test("a body over 64 KiB is 413 and nothing is stored")
    func bodyTooLarge() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            let padding = String(repeating: " ", count: 70_000)
            let response = service.request("PUT", "/v1/items/i/ratings/r", json: #"{"stars": 4}"# + padding)
            #expect(response.status == 413)
            #expect(response.header("content-type") == "application/problem+json")
            #expect(service.request("GET", "/v1/items/i").text.contains("\"count\":0"))
        }
    }

    @Test("1,000 concurrent writes to one item from 1,000 raters are all counted")
    func thousandConcurrentWriters() async throws {
        // A thousand phones, all on 127.0.0.1 here: no per-address limit, as behind a proxy.
        try await withAPI(.sqlite, over: .socket, configureServer: { $0.maxConnectionsPerAddress = 0 }) { service in
            let clients = try (0..<1_000).map { _ in try RawHTTPClient(port: try #require(service.port)) }
            for (index, client) in clients.enumerated() {
                let body = "{\"stars\":\(index % 5 + 1)}"
                client.send("PUT /v1/items/popular/ratings/rater-\(index) HTTP/1.1\nHost: t\nContent-Type: application/json\nContent-Length: \(body.utf8.count)\n\n\(body)")
            }
            var created = 0
            for client in clients where try client.readResponse().status == 201 { created += 1 }
            #expect(created == 1_000)
            let summary = object(service.request("GET", "/v1/items/popular"))
            #expect(summary["count"] as? Int == 1_000)
            #expect(summary["distribution"] as? [Int] == [200, 200, 200, 200, 200])
            #expect(summary["average"] as? Double == 3)
        }
    }

    @Test("headers too large are 431 problem+json")
    func headersTooLarge() async throws {
        try await withAPI(.sqlite, over: .socket) { service in
            let response = service.request("GET", "/v1/items/i", headers: ["X-Big": String(repeating: "b", count: 20_000)])
            #expect(response.status == 431)
            #expect(response.header("content-type") == "application/problem+json")
        }
    }
}

@Suite("A request that does not arrive in time, wired as in production")
struct RequestTimeoutOverSocketTests {
    @Test("a head that stops arriving is 408 with the API's problem type and a request id")
    func headTimeout() async throws {
        try await withAPI(.sqlite, over: .socket, configureServer: { $0.limits.headTimeoutSeconds = 0.5 }) { service in
            let client = try RawHTTPClient(port: try #require(service.port))
            client.send("GET /v1/items/i HTTP/1.1\nHost: t\n", crlf: true)
            let response = try client.readResponse()
            #expect(response.status == 408)
            #expect(object(response)["type"] as? String == "urn:ratings:problem:request-timeout")
            #expect(response.header("x-request-id")?.isEmpty == false)
        }
    }
}
