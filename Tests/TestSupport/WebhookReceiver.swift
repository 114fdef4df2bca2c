import Foundation
import HTTP1
import HTTPServer
public import Locking

/// A request a test's webhook receiver took.
public struct ReceivedWebhook: Sendable {
    public let path: String
    public let id: String
    public let timestamp: String
    public let signature: String
    public let body: [UInt8]
    /// The status it was answered with.
    public let status: Int

    /// The body's `data` member.
    public var data: [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["data"] as? [String: Any] ?? [:]
    }

    /// The body's `type`.
    public var type: String {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["type"] as? String ?? ""
    }
}

/// Runs `body` with an endpoint on `port` (0 for any) that answers each POST with
/// `status(index)` (from 0; a 503 with `Retry-After: 1`, so a test's retries come a second
/// apart) and keeps what it took.
public func withWebhookReceiver<T>(port: Int = 0, status: @escaping @Sendable (Int) -> Int = { _ in 204 },
                                   _ body: (_ port: Int, _ received: Locked<[ReceivedWebhook]>) async throws -> T) async throws -> T {
    let received = Locked<[ReceivedWebhook]>([])
    let handler = HTTPHandler { request, _, _ in
        let answer = received.withLock { list -> Int in
            let answer = status(list.count)
            list.append(ReceivedWebhook(path: request.target, id: request.headers["webhook-id"] ?? "",
                                        timestamp: request.headers["webhook-timestamp"] ?? "",
                                        signature: request.headers["webhook-signature"] ?? "", body: request.body, status: answer))
            return answer
        }
        return .now(HTTPResponse(status: answer, headers: HTTPHeaders(answer == 503 ? [("Retry-After", "1")] : [])))
    }
    return try await withTestServer(handler: handler, configure: { $0.port = port }) { port, _ in try await body(port, received) }
}

/// A webhooks file naming one endpoint for every event at `url`, with the Standard Webhooks
/// specification's example secret.
public func webhooksFile(_ entries: [(id: String, url: String)]) -> String {
    let endpoints = entries.map {
        #"{"id": "\#($0.id)", "url": "\#($0.url)", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "events": ["*"]}"#
    }
    return #"{"endpoints": [\#(endpoints.joined(separator: ", "))]}"#
}
