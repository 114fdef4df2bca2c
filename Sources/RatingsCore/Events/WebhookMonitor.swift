/// What the admin route and the metrics read of this process's webhooks: the endpoints in force
/// and the attempts made here. The outbox's own counts come from the store.
public protocol WebhookMonitor: Sendable {
    /// The endpoints of the webhooks file as last read successfully.
    var endpoints: [WebhookEndpoint] { get }
    /// Attempts this process made since it started, per endpoint id.
    func attempts() -> [String: AttemptCounts]
}

/// Attempts of one endpoint by what they came to.
public struct AttemptCounts: Sendable, Hashable {
    public var delivered = 0
    /// Attempts that did not succeed and will be tried again.
    public var retried = 0
    /// Attempts after which the delivery was given up.
    public var failed = 0

    public init() {}
}
