/// Where one connection stands and when it must give up waiting: the keep-alive and timeout
/// rules as a pure state machine. The server feeds it events and a monotonic clock (seconds) and
/// carries out the actions it returns.
public struct ConnectionLifecycle: Sendable, Equatable {
    /// What the connection is waiting for.
    public enum Phase: Sendable, Equatable {
        /// Between requests, nothing buffered.
        case idle
        /// Part of a request head has arrived.
        case readingHead
        /// The head is in; the body is arriving.
        case readingBody
        /// A request is being handled or its response written.
        case responding
    }

    /// What to do when a deadline passes.
    public enum TimeoutAction: Sendable, Equatable {
        /// Close without a word: an idle keep-alive connection, or a client not reading its response.
        case close
        /// Answer 408 with `Connection: close`, then close: a request that stopped arriving.
        case requestTimeout
    }

    public private(set) var phase = Phase.idle
    /// When the current phase times out.
    public private(set) var deadline: Double
    private let limits: HTTPLimits

    public init(limits: HTTPLimits, now: Double) {
        self.limits = limits
        deadline = now + limits.idleTimeoutSeconds
    }

    /// Bytes of a request arrived. The head deadline is not extended by later bytes: a client
    /// sending one byte a second still runs out of time (slowloris).
    public mutating func requestBytesArrived(headComplete: Bool, now: Double) {
        switch phase {
        case .idle:
            phase = headComplete ? .readingBody : .readingHead
            deadline = now + (headComplete ? limits.bodyTimeoutSeconds : limits.headTimeoutSeconds)
        case .readingHead where headComplete:
            phase = .readingBody
            deadline = now + limits.bodyTimeoutSeconds
        default:
            break
        }
    }

    /// A complete request is being handled; its response must be written in time.
    public mutating func requestStarted(now: Double) {
        phase = .responding
        deadline = now + limits.writeTimeoutSeconds
    }

    /// The response was written. Returns whether the connection stays open, given whether both
    /// sides wanted keep-alive and whether the server is draining.
    public mutating func responseFinished(keepAlive: Bool, draining: Bool, now: Double) -> Bool {
        guard keepAlive && !draining else { return false }
        phase = .idle
        deadline = now + limits.idleTimeoutSeconds
        return true
    }

    /// What to do at `now`, or nil while the deadline is ahead.
    public func timeout(now: Double) -> TimeoutAction? {
        guard now >= deadline else { return nil }
        switch phase {
        case .idle, .responding: return .close
        case .readingHead, .readingBody: return .requestTimeout
        }
    }

    /// Whether a draining server may close this connection now: no request head has fully arrived.
    public var isQuiet: Bool { phase == .idle || phase == .readingHead }
}
