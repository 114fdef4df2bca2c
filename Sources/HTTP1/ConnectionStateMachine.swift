/// The life of one HTTP/1.1 connection as a pure state machine, in the manner of SwiftNIO's
/// `HTTPServerPipelineHandler`: the IO shell feeds it events (bytes read, a response ready, the
/// output flushed, the peer's end of input, a drain, a clock tick) and carries out the one action
/// each event returns. Every event is answered in every state; an event that cannot apply to the
/// current state (a response when no request is in flight, say) is answered with `.none`, on
/// purpose, and the tests hold each of those answers.
///
/// Pipelining follows RFC 9112 §9.3.2: while a request is handled, later requests wait unread in
/// the shell's buffer, which is also the backpressure. Output is bounded too: while more than
/// `HTTPLimits.maxUnsentOutputBytes` of answers wait for a client that does not read them, no
/// further request is read or parsed, and output that makes no progress for the write timeout
/// closes the connection in every state. An error answer ends with a lingering
/// close (RFC 9112 §9.6), so unread request bytes do not turn the close into a reset that would
/// destroy the answer.
public struct ConnectionStateMachine: Sendable {
    /// Where the connection stands.
    public enum State: Sendable, Equatable {
        /// Between requests: no byte of the next one has arrived.
        case idle
        /// Part of a request head has arrived.
        case readingHead
        /// The head is in and its body is arriving; `continueSent` once `100 Continue` went out.
        case readingBody(continueSent: Bool)
        /// The handler has the request; later bytes wait unread.
        case handling(includeBody: Bool, keepAlive: Bool)
        /// The last response is queued; the connection closes once it is written.
        case closingAfterResponse
        /// Half-closed after the last response; input is read and dropped until the peer closes
        /// or the linger time ends.
        case lingering
        /// Nothing more happens.
        case closed
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

    public private(set) var state = State.idle
    /// When the current state times out, on the shell's monotonic clock (seconds).
    public private(set) var deadline: Double
    /// Whether a response is queued and not yet fully written.
    public private(set) var outputPending = false
    /// Bytes of queued output the socket would not take at the last write (0 once all is out).
    public private(set) var unsentOutput = 0
    /// Whether the server is draining: answer what has arrived, accept nothing new.
    public private(set) var draining = false
    /// Whether the peer has closed its side (read returned end of file).
    public private(set) var inputEnded = false

    private var parser: HTTPRequestParser
    private let limits: HTTPLimits
    private let lingerSeconds: Double

    public init(limits: HTTPLimits, lingerSeconds: Double, now: Double) {
        self.limits = limits
        self.lingerSeconds = lingerSeconds
        parser = HTTPRequestParser(limits: limits)
        deadline = now + limits.idleTimeoutSeconds
    }

    // MARK: Events

    /// Bytes are waiting in the shell's buffer (`input` starts at the first unread byte). Returns
    /// how many the shell may drop from its buffer, and what to do.
    public mutating func read(_ input: UnsafeRawBufferPointer, now: Double) -> (consumed: Int, action: Action) {
        switch state {
        case .idle, .readingHead, .readingBody:
            // A client that does not read its answers gets no more of them (RFC 9112 §9.3.2 lets
            // a server stop reading; the write deadline ends the connection if it never reads).
            guard !outputBacklogged else { return (0, .none) }
            return parse(input, now: now)
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
        guard case .handling(let includeBody, let clientKeepsAlive) = state else { return .none }
        // Requests that arrived before the peer closed its side, or before a drain, are answered.
        let noMoreRequests = (inputEnded || draining) && !hasBufferedInput
        let keepAlive = clientKeepsAlive && !response.headers.contains(token: "close", in: "connection") && !noMoreRequests
        outputPending = true
        if keepAlive {
            // The write deadline until the answer is out; the idle one starts when it is.
            enter(.idle, until: now + limits.writeTimeoutSeconds)
        } else {
            enter(.closingAfterResponse, until: now + limits.writeTimeoutSeconds)
        }
        return .send(response, keepAlive: keepAlive, includeBody: includeBody)
    }

    /// Everything queued has been written to the socket.
    public mutating func outputFlushed(hasBufferedInput: Bool, now: Double) -> Action {
        outputPending = false
        unsentOutput = 0
        switch state {
        case .closingAfterResponse:
            enter(.lingering, until: now + lingerSeconds)
            return .lingerThenClose
        case .idle where (draining || inputEnded) && !hasBufferedInput:
            enter(.closed, until: now)
            return .close
        case .idle:
            deadline = now + limits.idleTimeoutSeconds
            return .none
        default:
            return .none
        }
    }

    /// A write stopped because the socket is full: `remaining` bytes still wait, after `sent`
    /// bytes went out in this write. Output that moves keeps the connection alive for another
    /// write timeout (a slow reader is served, as with nginx's `send_timeout`); output that stands
    /// still for the write timeout closes it at the next tick.
    public mutating func outputBlocked(remaining: Int, sent: Int, now: Double) {
        guard outputPending else { return } // nothing of ours is queued: an event from a confused shell
        unsentOutput = remaining
        guard sent > 0 else { return }
        switch state {
        case .idle, .closingAfterResponse:
            deadline = now + limits.writeTimeoutSeconds
        case .readingHead, .readingBody, .handling, .lingering, .closed:
            break // their own deadline governs: the request's arrival, the handler, the linger
        }
    }

    /// Whether so much output waits unread that no further request may be read.
    private var outputBacklogged: Bool { unsentOutput > limits.maxUnsentOutputBytes }

    /// The server turns the connection away before reading any of it (too many connections): the
    /// refusal is written, then the connection lingers like every other refusal, so that a client
    /// that had already sent its request reads the answer rather than a reset.
    public mutating func refuse(_ problem: ProblemDetails, now: Double) -> Action {
        guard state == .idle, !outputPending else { return .none } // only a connection nothing has happened on
        enter(.closingAfterResponse, until: now + limits.writeTimeoutSeconds)
        outputPending = true
        return .refuse(problem)
    }

    /// The peer closed its side of the connection (a read returned end of file).
    public mutating func peerClosedInput(now: Double) -> Action {
        inputEnded = true
        switch state {
        case .idle where outputPending:
            enter(.closingAfterResponse, until: now + limits.writeTimeoutSeconds)
            return .none
        case .idle, .readingHead, .readingBody, .lingering:
            // Nothing to answer: no request, or one that will never be complete.
            enter(.closed, until: now)
            return .close
        case .handling, .closingAfterResponse, .closed:
            return .none // the answer is still written; the connection closes after it
        }
    }

    /// The server stops taking requests: a connection with no complete request head closes now;
    /// one with a request under way closes after its answer. `hasBufferedInput` as above.
    public mutating func drain(hasBufferedInput: Bool, now: Double) -> Action {
        draining = true
        switch state {
        case .idle where !outputPending && !hasBufferedInput, .readingHead:
            enter(.closed, until: now)
            return .close
        default:
            return .none
        }
    }

    /// The clock ticked; acts only once the deadline has passed.
    public mutating func tick(now: Double) -> Action {
        guard now >= deadline else { return .none }
        switch state {
        case .readingHead, .readingBody:
            // A request that stopped arriving. The head deadline is never extended by later bytes,
            // so a client sending one byte a second still runs out of time (slowloris).
            enter(.closingAfterResponse, until: now + limits.writeTimeoutSeconds)
            outputPending = true
            return .refuse(ProblemDetails(status: 408, detail: "The request did not arrive in time; send it again on a new connection."))
        case .idle, .handling, .closingAfterResponse, .lingering:
            // Idle too long, a handler or a reader too slow, or the linger time is over.
            enter(.closed, until: now)
            return .close
        case .closed:
            return .none
        }
    }

    /// A read or write failed (the peer reset the connection, say); nothing more can be done.
    public mutating func ioFailed(now: Double) -> Action {
        guard state != .closed else { return .none }
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
        case .lingering, .closingAfterResponse: return !inputEnded
        case .idle, .readingHead, .readingBody, .handling: return !inputEnded && buffered < maxBufferedInput && !outputBacklogged
        }
    }

    // MARK: Parsing

    private mutating func parse(_ input: UnsafeRawBufferPointer, now: Double) -> (consumed: Int, action: Action) {
        let (outcome, consumed) = parser.parse(input)
        switch consume outcome {
        case .request(let request):
            let keepAlive = request.head.keepAlive
            enter(.handling(includeBody: request.method != "HEAD", keepAlive: keepAlive), until: now + limits.writeTimeoutSeconds)
            return (consumed, .dispatch(request))
        case .failure(let error):
            enter(.closingAfterResponse, until: now + limits.writeTimeoutSeconds)
            outputPending = true
            return (input.count, .refuse(ProblemDetails(status: error.status, detail: error.detail)))
        case .needMore:
            if let head = parser.pendingHead {
                var continueSent = false
                if case .readingBody(let sent) = state { continueSent = sent } else { enter(.readingBody(continueSent: false), until: now + limits.bodyTimeoutSeconds) }
                if !continueSent && head.expectsContinue {
                    state = .readingBody(continueSent: true)
                    return (consumed, .sendContinue)
                }
                return (consumed, .none)
            }
            if input.count > consumed {
                if state == .idle { enter(.readingHead, until: now + limits.headTimeoutSeconds) }
                // A draining server takes no new request whose head had not fully arrived.
                if draining {
                    enter(.closed, until: now)
                    return (input.count, .close)
                }
            }
            return (consumed, .none)
        }
    }

    private mutating func enter(_ next: State, until newDeadline: Double) {
        state = next
        deadline = newDeadline
    }
}
