/// The life of one HTTP/1.1 connection as a pure state machine, in the manner of SwiftNIO's
/// `HTTPServerPipelineHandler`: the IO shell feeds it events (bytes read, a response ready, the
/// output written or blocked, the peer's end of input, a drain, a clock tick) and carries out the
/// one action each event returns. What exists only in some states lives in those states' cases
/// (whether an answer is still being written, whether `100 Continue` went out); what is true of
/// the connection in every state (the peer's end of input, the server's drain) is an enum of its
/// own beside them. An event that cannot happen in the current state (a response with no request
/// in flight, say) is answered with `.none` and recorded in `impossibleEvents`, which the tests
/// and the shell's debug builds require to stay empty.
///
/// Pipelining follows RFC 9112 §9.3.2: while a request is handled, later requests wait unread in
/// the shell's buffer, which is also the backpressure. Output is bounded too: while more than
/// `HTTPLimits.maxUnsentOutputBytes` of answers wait for a client that does not read them, no
/// further request is read or parsed, and output that makes no progress for the write timeout
/// closes the connection in every state. An error answer ends with a lingering close (RFC 9112
/// §9.6), so unread request bytes do not turn the close into a reset that would destroy the answer.
public struct ConnectionStateMachine: Sendable {
    /// Whether an answer of ours is still being written.
    public enum Output: Sendable, Equatable {
        /// Everything queued has been written.
        case flushed
        /// An answer is queued; `unsent` bytes were left at the last write the socket would not
        /// take whole (0 until one has not).
        case pending(unsent: Int)

        var unsent: Int {
            if case .pending(let unsent) = self { return unsent }
            return 0
        }
    }

    /// Where the connection stands.
    public enum State: Sendable, Equatable {
        /// Between requests: no byte of the next one has arrived.
        case idle(Output)
        /// Part of a request head has arrived.
        case readingHead(Output)
        /// The head is in and its body is arriving; `continueSent` once `100 Continue` went out.
        case readingBody(continueSent: Bool, Output)
        /// The handler has the request; later bytes wait unread.
        case handling(includeBody: Bool, keepAlive: Bool, Output)
        /// The last answer is being written (`unsent` as in `Output.pending`); the connection
        /// closes once it is out.
        case closingAfterResponse(unsent: Int)
        /// Half-closed after the last response; input is read and dropped until the peer closes
        /// or the linger time ends.
        case lingering
        /// Nothing more happens.
        case closed
    }

    /// Whether the peer may still send.
    public enum Input: Sendable, Equatable {
        case open
        /// A read returned end of file: the peer sends nothing more.
        case ended
    }

    /// Whether the server takes new requests.
    public enum Admission: Sendable, Equatable {
        case accepting
        /// The server is draining: what has arrived is answered, nothing new is taken.
        case draining
    }

    /// What the shell must do.
    public enum Action: Sendable, Equatable {
        /// Nothing; wait for the next event.
        case none
        /// Hand the request to the handler.
        case dispatch(HTTPRequest)
        /// Write `100 Continue`; the client waits for it before sending the body.
        case sendContinue
        /// Serialize and write this response, with `Connection: keep-alive` or `close`.
        case send(HTTPResponse, keepAlive: Bool, includeBody: Bool)
        /// Write this refusal (the request could not be read, or did not arrive in time), then close.
        case refuse(ProblemDetails)
        /// Stop sending (`shutdown(SHUT_WR)`) and read and drop input until the peer closes.
        case lingerThenClose
        /// Close the socket now.
        case close
    }

    public private(set) var state = State.idle(.flushed)
    public private(set) var input = Input.open
    public private(set) var admission = Admission.accepting
    /// When the current state times out, on the shell's monotonic clock (seconds).
    public private(set) var deadline: Double
    /// Events that cannot happen in the state they arrived in, each named with that state. The
    /// shell never sends one; a test or a debug build that sees one here has found a bug.
    public private(set) var impossibleEvents: [String] = []

    private var parser: HTTPRequestParser
    private let limits: HTTPLimits
    private let lingerSeconds: Double

    public init(limits: HTTPLimits, lingerSeconds: Double, now: Double) {
        self.limits = limits
        self.lingerSeconds = lingerSeconds
        parser = HTTPRequestParser(limits: limits)
        deadline = now + limits.idleTimeoutSeconds
    }

    /// Whether an answer is queued and not yet fully written.
    public var outputPending: Bool {
        switch state {
        case .closingAfterResponse: return true
        case .lingering, .closed: return false
        case .idle, .readingHead, .readingBody, .handling: return state.output != .flushed
        }
    }

    // MARK: Events

    /// Bytes are waiting in the shell's buffer (`input` starts at the first unread byte). Returns
    /// how many the shell may drop from its buffer, and what to do.
    public mutating func read(_ input: UnsafeRawBufferPointer, now: Double) -> (consumed: Int, action: Action) {
        switch state {
        case .idle(let output), .readingHead(let output), .readingBody(_, let output):
            // A client that does not read its answers gets no more of them (RFC 9112 §9.3.2 lets
            // a server stop reading; the write deadline ends the connection if it never reads).
            guard !backlogged(output) else { return (0, .none) }
            return parse(input, output: output, now: now)
        case .handling:
            return (0, .none) // pipelined: the next request waits until this response is queued
        case .closingAfterResponse, .lingering, .closed:
            return (input.count, .none) // after the last response, input is dropped unread
        }
    }

    /// The handler's response for the request in flight. `hasBufferedInput` says whether bytes of
    /// a later request are already waiting (they are answered even when the peer has closed its
    /// side or the server is draining).
    public mutating func responseReady(_ response: consuming HTTPResponse, hasBufferedInput: Bool, now: Double) -> Action {
        guard case .handling(let includeBody, let clientKeepsAlive, let output) = state else {
            return impossible("a response with no request in flight")
        }
        // Requests that arrived before the peer closed its side, or before a drain, are answered.
        let noMoreRequests = (input == .ended || admission == .draining) && !hasBufferedInput
        let keepAlive = clientKeepsAlive && !response.headers.contains(token: "close", in: "connection") && !noMoreRequests
        if keepAlive {
            // The write deadline until the answer is out; the idle one starts when it is.
            enter(.idle(.pending(unsent: output.unsent)), until: now + limits.writeTimeoutSeconds)
        } else {
            enter(.closingAfterResponse(unsent: output.unsent), until: now + limits.writeTimeoutSeconds)
        }
        return .send(response, keepAlive: keepAlive, includeBody: includeBody)
    }

    /// Everything queued has been written to the socket.
    public mutating func outputFlushed(hasBufferedInput: Bool, now: Double) -> Action {
        switch state {
        case .closingAfterResponse:
            enter(.lingering, until: now + lingerSeconds)
            return .lingerThenClose
        case .idle(.pending) where (admission == .draining || input == .ended) && !hasBufferedInput:
            enter(.closed, until: now)
            return .close
        case .idle(.pending):
            enter(.idle(.flushed), until: now + limits.idleTimeoutSeconds)
            return .none
        case .idle, .readingHead, .readingBody, .handling, .lingering, .closed:
            guard case .pending? = state.output else { return impossible("output written with none queued") }
            state = state.replacingOutput(.flushed)
            return .none
        }
    }

    /// A write stopped because the socket is full: `remaining` bytes still wait, after `sent`
    /// bytes went out in this write. Output that moves keeps the connection alive for another
    /// write timeout (a slow reader is served, as with nginx's `send_timeout`); output that stands
    /// still for the write timeout closes it at the next tick.
    public mutating func outputBlocked(remaining: Int, sent: Int, now: Double) {
        switch state {
        case .closingAfterResponse:
            state = .closingAfterResponse(unsent: remaining)
        case .idle, .readingHead, .readingBody, .handling, .lingering, .closed:
            guard case .pending? = state.output else {
                _ = impossible("a blocked write with none queued")
                return
            }
            state = state.replacingOutput(.pending(unsent: remaining))
        }
        // Between requests and after the last answer the write deadline governs; while a request
        // arrives or is handled, its own deadline does.
        switch state {
        case .idle, .closingAfterResponse: if sent > 0 { deadline = now + limits.writeTimeoutSeconds }
        case .readingHead, .readingBody, .handling, .lingering, .closed: break
        }
    }

    /// The server turns the connection away before reading any of it (too many connections): the
    /// refusal is written, then the connection lingers like every other refusal, so that a client
    /// that had already sent its request reads the answer rather than a reset.
    public mutating func refuse(_ problem: ProblemDetails, now: Double) -> Action {
        guard state == .idle(.flushed) else { return impossible("a refusal of a connection already in use") }
        enter(.closingAfterResponse(unsent: 0), until: now + limits.writeTimeoutSeconds)
        return .refuse(problem)
    }

    /// The peer closed its side of the connection (a read returned end of file).
    public mutating func peerClosedInput(now: Double) -> Action {
        guard input == .open else { return impossible("the peer's end of input, again") }
        input = .ended
        switch state {
        case .idle(.pending(let unsent)), .readingHead(.pending(let unsent)), .readingBody(_, .pending(let unsent)):
            // No request will complete; the answers already queued are still written.
            enter(.closingAfterResponse(unsent: unsent), until: now + limits.writeTimeoutSeconds)
            return .none
        case .idle(.flushed), .readingHead(.flushed), .readingBody(_, .flushed), .lingering:
            // Nothing to answer: no request, or one that will never be complete.
            enter(.closed, until: now)
            return .close
        case .handling, .closingAfterResponse:
            return .none // the answer is still written; the connection closes after it
        case .closed:
            return impossible("the peer's end of input after the close")
        }
    }

    /// The server stops taking requests: a connection with no complete request head closes now
    /// (once the answers already queued are written); one with a request under way closes after
    /// its answer. `hasBufferedInput` as above.
    public mutating func drain(hasBufferedInput: Bool, now: Double) -> Action {
        guard admission == .accepting else { return impossible("a drain, again") }
        admission = .draining
        switch state {
        case .idle(.flushed) where !hasBufferedInput, .readingHead(.flushed):
            enter(.closed, until: now)
            return .close
        case .readingHead(.pending(let unsent)):
            enter(.closingAfterResponse(unsent: unsent), until: now + limits.writeTimeoutSeconds)
            return .none
        case .idle, .readingBody, .handling, .closingAfterResponse, .lingering:
            return .none
        case .closed:
            return impossible("a drain after the close")
        }
    }

    /// The clock ticked; acts only once the deadline has passed.
    public mutating func tick(now: Double) -> Action {
        guard now >= deadline else { return .none }
        switch state {
        case .readingHead(let output), .readingBody(_, let output):
            // A request that stopped arriving. The head deadline is never extended by later bytes,
            // so a client sending one byte a second still runs out of time (slowloris).
            enter(.closingAfterResponse(unsent: output.unsent), until: now + limits.writeTimeoutSeconds)
            return .refuse(ProblemDetails(status: 408, detail: "The request did not arrive in time; send it again on a new connection."))
        case .idle, .handling, .closingAfterResponse, .lingering:
            // Idle too long, a handler or a reader too slow, or the linger time is over.
            enter(.closed, until: now)
            return .close
        case .closed:
            return .none // the clock goes on; nothing is left to time out
        }
    }

    /// A read or write failed (the peer reset the connection, say); nothing more can be done.
    public mutating func ioFailed(now: Double) -> Action {
        guard state != .closed else { return impossible("a failed read or write after the close") }
        enter(.closed, until: now)
        return .close
    }

    /// Whether the shell should read more from the socket now, given how much already waits.
    /// Reading stops once `maxBufferedInput` bytes wait unparsed (backpressure: behind a request
    /// in flight, or ahead of the parser) and while a client leaves too much output unread; so does
    /// a peer that has closed its side. What is read after an answer is only dropped.
    public func wantsInput(buffered: Int, maxBufferedInput: Int) -> Bool {
        switch state {
        case .closed: return false
        case .lingering, .closingAfterResponse: return input == .open
        case .idle(let output), .readingHead(let output), .readingBody(_, let output), .handling(_, _, let output):
            return input == .open && buffered < maxBufferedInput && !backlogged(output)
        }
    }

    // MARK: Parsing

    private mutating func parse(_ bytes: UnsafeRawBufferPointer, output: Output, now: Double) -> (consumed: Int, action: Action) {
        let (outcome, consumed) = parser.parse(bytes)
        switch consume outcome {
        case .request(let request):
            let keepAlive = request.head.keepAlive
            enter(.handling(includeBody: request.method != "HEAD", keepAlive: keepAlive, output), until: now + limits.writeTimeoutSeconds)
            return (consumed, .dispatch(request))
        case .failure(let error):
            enter(.closingAfterResponse(unsent: output.unsent), until: now + limits.writeTimeoutSeconds)
            return (bytes.count, .refuse(ProblemDetails(status: error.status, detail: error.detail)))
        case .needMore:
            if let head = parser.pendingHead {
                var continueSent = false
                if case .readingBody(let sent, _) = state {
                    continueSent = sent
                } else {
                    enter(.readingBody(continueSent: false, output), until: now + limits.bodyTimeoutSeconds)
                }
                if !continueSent && head.expectsContinue {
                    state = .readingBody(continueSent: true, .pending(unsent: output.unsent))
                    return (consumed, .sendContinue)
                }
                return (consumed, .none)
            }
            if bytes.count > consumed {
                if case .idle = state { enter(.readingHead(output), until: now + limits.headTimeoutSeconds) }
                // A draining server takes no new request whose head had not fully arrived.
                if admission == .draining {
                    if output == .flushed {
                        enter(.closed, until: now)
                        return (bytes.count, .close)
                    }
                    enter(.closingAfterResponse(unsent: output.unsent), until: now + limits.writeTimeoutSeconds)
                    return (bytes.count, .none)
                }
            }
            return (consumed, .none)
        }
    }

    /// Whether so much output waits unread that no further request may be read.
    private func backlogged(_ output: Output) -> Bool { output.unsent > limits.maxUnsentOutputBytes }

    private mutating func enter(_ next: State, until newDeadline: Double) {
        state = next
        deadline = newDeadline
    }

    /// Records an event that cannot happen in the current state, and answers it with nothing.
    private mutating func impossible(_ event: String) -> Action {
        impossibleEvents.append("\(event) in \(state)")
        return .none
    }
}

extension ConnectionStateMachine.State {
    /// The output of a state in which an answer can be queued beside a request; nil for the others.
    var output: ConnectionStateMachine.Output? {
        switch self {
        case .idle(let output), .readingHead(let output), .readingBody(_, let output), .handling(_, _, let output): return output
        case .closingAfterResponse, .lingering, .closed: return nil
        }
    }

    /// The same state with `output` in place of its own; a state without one stays as it is.
    func replacingOutput(_ output: ConnectionStateMachine.Output) -> Self {
        switch self {
        case .idle: return .idle(output)
        case .readingHead: return .readingHead(output)
        case .readingBody(let continueSent, _): return .readingBody(continueSent: continueSent, output)
        case .handling(let includeBody, let keepAlive, _): return .handling(includeBody: includeBody, keepAlive: keepAlive, output)
        case .closingAfterResponse, .lingering, .closed: return self
        }
    }
}
