public import RatingsCore
import Locking
import Glibc

/// The endpoints in force, shared by the recorder (which writes their outbox rows) and the
/// dispatcher (which delivers them), replaced whole when the webhooks file is read again.
public final class WebhookEndpoints: Sendable {
    /// The endpoints and, made from them when they are set, what the writer asks per event:
    /// kept under one lock, so the two never describe different files.
    private struct InForce: Sendable {
        let endpoints: [WebhookEndpoint]
        let subscriptions: [(id: String, types: EventTypes)]

        init(_ endpoints: [WebhookEndpoint]) {
            self.endpoints = endpoints
            subscriptions = endpoints.map { ($0.id, $0.types) }
        }
    }

    private let current: Locked<InForce>
    /// The file they come from.
    public let path: String

    /// Reads `path`; throws when it cannot be read or used, naming what is wrong.
    public init(path: String) throws(WebhookConfigurationError) {
        self.path = path
        current = Locked(InForce(try Self.read(path)))
    }

    /// Endpoints given directly, for tests.
    public init(_ endpoints: [WebhookEndpoint]) {
        path = ""
        current = Locked(InForce(endpoints))
    }

    public var all: [WebhookEndpoint] { current.withLock { $0.endpoints } }

    /// Each endpoint's id and the types it wants, for the writer: no secret or URL copied per event.
    public var subscriptions: [(id: String, types: EventTypes)] { current.withLock { $0.subscriptions } }

    public func endpoint(_ id: String) -> WebhookEndpoint? { current.withLock { $0.endpoints.first { $0.id == id } } }

    /// Reads the file again: the new endpoints on success; on failure the endpoints in force stay
    /// and the error says why.
    @discardableResult
    public func reload() throws(WebhookConfigurationError) -> [WebhookEndpoint] {
        let endpoints = try Self.read(path)
        replace(endpoints)
        return endpoints
    }

    public func replace(_ endpoints: [WebhookEndpoint]) {
        let inForce = InForce(endpoints)
        current.withLock { $0 = inForce }
    }

    private static func read(_ path: String) throws(WebhookConfigurationError) -> [WebhookEndpoint] {
        guard let file = fopen(path, "rb") else {
            throw WebhookConfigurationError("\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk.prefix(count)
            if count < chunk.count { break }
            guard bytes.count <= 1 << 20 else { throw WebhookConfigurationError("\(path) is over 1 MiB; a webhooks file lists endpoints") }
        }
        do {
            return try WebhookConfiguration.endpoints(from: bytes)
        } catch {
            throw WebhookConfigurationError("\(path): \(error.description)")
        }
    }
}
