import CLinux
import Glibc
import HTTP1

/// One client connection: reads requests, hands them to the handler one at a time, writes the
/// responses in order. Pipelined requests wait in the input buffer until the response before
/// them is written, which is also the backpressure (like SwiftNIO's pipeline handler).
// Safe: touched only on its loop's thread; other threads only pass it to `loop.execute`.
final class Connection: EventSource, @unchecked Sendable {
    /// What the server shares with every connection.
    struct Shared: Sendable {
        let handler: HTTPHandler
        let configuration: ServerConfiguration
        let metrics: ServerMetrics
        let requestIDs: RequestIDs
    }

    /// The request being handled, kept for its response and its log line.
    private struct InFlight {
        let method: String
        let target: String
        let version: HTTPVersion
        let requestID: String
        let keepAlive: Bool
        let ifNoneMatch: String?
        let started: Double
    }

    /// Input kept while a request is in flight before reading pauses.
    private static let maxBufferedInput = 128 * 1024

    let fd: Int32
    private let peer: String
    private unowned let loop: EventLoop
    private let shared: Shared
    private var parser: HTTPRequestParser
    private var lifecycle: ConnectionLifecycle
    private var input: [UInt8] = []
    private var inputStart = 0
    private var output: [UInt8] = []
    private var outputStart = 0
    private var inFlight: InFlight?
    private var sentContinue = false
    private var closeAfterWrite = false
    private var peerClosedInput = false
    private var processing = false
    private var draining = false
    private var lingerDeadline: Double?
    private var watchedEvents: UInt32 = 0
    private(set) var closed = false

    init(fd: Int32, peer: String, loop: EventLoop, shared: Shared) {
        self.fd = fd
        self.peer = peer
        self.loop = loop
        self.shared = shared
        parser = HTTPRequestParser(limits: shared.configuration.limits)
        lifecycle = ConnectionLifecycle(limits: shared.configuration.limits, now: loop.now)
    }

    /// Starts watching the socket.
    func open() throws(SystemError) {
        watchedEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        try loop.register(fd, events: watchedEvents, source: self)
        shared.metrics.connectionOpened()
    }

    // MARK: Events

    func handle(events: UInt32) {
        if closed { return }
        if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0 { readAvailable() }
        if closed { return }
        if lingerDeadline != nil { return }
        if events & EPOLLOUT.rawValue != 0 { flush() }
        processInput()
    }

    func tick(now: Double) {
        if closed { return }
        if let lingerDeadline {
            if now >= lingerDeadline { close() }
            return
        }
        switch lifecycle.timeout(now: now) {
        case nil: break
        case .close?: close()
        case .requestTimeout?:
            guard inFlight == nil else { return }
            respondAndClose(ProblemDetails(status: 408, detail: "The request did not arrive in time; send it again on a new connection."))
        }
    }

    /// The server is draining: close now if no request is under way, else after its response.
    func drain() {
        draining = true
        if !closed && inFlight == nil && outputStart >= output.count && lifecycle.isQuiet { close() }
    }

    // MARK: Reading

    private func readAvailable() {
        if lingerDeadline != nil { discardInput(); return }
        while !closed {
            if inFlight != nil && input.count - inputStart >= Connection.maxBufferedInput { break }
            switch receive() {
            case .done(let count)? where count > 0:
                loop.scratch.withUnsafeBytes { input.append(contentsOf: $0[..<count]) }
                if count < loop.scratch.count { return }
            case .done?:
                peerClosedInput = true
                return
            case .wouldBlock?:
                return
            case nil:
                close() // ECONNRESET and friends: the client vanished.
                return
            }
        }
    }

    /// One `recv` into the loop's scratch buffer; nil when the connection failed.
    private func receive() -> IOResult<Int>? {
        try? syscall("recv") { loop.scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
    }

    /// After an error response, reads and drops whatever the client still sends until it closes.
    private func discardInput() {
        while true {
            switch receive() {
            case .done(let count)? where count > 0: continue
            case .wouldBlock?: return
            default: close(); return // the client closed, or the connection failed
            }
        }
    }

    // MARK: Requests

    private func processInput() {
        if closed || processing { return }
        processing = true
        defer { processing = false }
        while !closed && inFlight == nil && !closeAfterWrite && inputStart < input.count {
            let (outcome, consumed) = input.withUnsafeBytes { parser.parse(UnsafeRawBufferPointer(rebasing: $0[inputStart...])) }
            inputStart += consumed
            switch outcome {
            case .needMore:
                lifecycle.requestBytesArrived(headComplete: parser.pendingHead != nil, now: loop.now)
                if !sentContinue, let head = parser.pendingHead, head.expectsContinue {
                    sentContinue = true
                    output.append(contentsOf: ResponseSerializer.continueBytes)
                }
            case .failure(let error):
                respondAndClose(ProblemDetails(status: error.status, detail: error.detail))
            case .request(let request):
                sentContinue = false
                dispatch(request)
            }
            if case .needMore = outcome { break }
        }
        compactInput()
        flush()
        if !closed && peerClosedInput && inFlight == nil && outputStart >= output.count {
            close()
            return
        }
        if draining { drain() }
        updateInterest()
    }

    private func dispatch(_ request: HTTPRequest) {
        var request = request
        let requestID = shared.requestIDs.id(from: request.headers["x-request-id"])
        request.head.headers.set("x-request-id", requestID)
        lifecycle.requestStarted(now: loop.now)
        inFlight = InFlight(method: request.method, target: request.target, version: request.head.version,
                            requestID: requestID, keepAlive: request.head.keepAlive,
                            ifNoneMatch: request.headers["if-none-match"], started: SystemClock.monotonicSeconds())
        let loop = self.loop
        shared.handler.handle(request) { [self] response in
            if loop.inLoop {
                responseArrived(response)
            } else {
                loop.execute { self.responseArrived(response) }
            }
        }
    }

    private func responseArrived(_ response: HTTPResponse) {
        guard let flight = inFlight, !closed else { return }
        inFlight = nil
        var response = response
        response.headers.set("x-request-id", flight.requestID)
        let isRead = flight.method == "GET" || flight.method == "HEAD"
        if isRead, (200..<300).contains(response.status), let etag = response.headers["etag"],
           let ifNoneMatch = flight.ifNoneMatch, EntityTag.matches(ifNoneMatch: ifNoneMatch, etag: etag) {
            response = response.notModified
        }
        let handlerCloses = response.headers.contains(token: "close", in: "connection")
        let morePipelined = inputStart < input.count
        let keepAlive = lifecycle.responseFinished(keepAlive: flight.keepAlive && !handlerCloses,
                                                   draining: draining && !morePipelined, now: loop.now)
        let before = output.count
        ResponseSerializer.write(response, date: loop.date, keepAlive: keepAlive, includeBody: flight.method != "HEAD", into: &output)
        if !keepAlive { closeAfterWrite = true }
        logAccess(flight, status: response.status, bytes: output.count - before)
        if !processing {
            flush()
            processInput()
        }
    }

    private func logAccess(_ flight: InFlight, status: Int, bytes: Int) {
        let micros = Int((SystemClock.monotonicSeconds() - flight.started) * 1_000_000)
        let timestamp = loop.timestamp
        loop.log { line in
            line.append(timestamp); line.space(); line.append(peer); line.append(" \"")
            line.append(flight.method); line.space(); line.append(flight.target); line.space()
            line.append(flight.version.rawValue); line.append("\" "); line.append(status); line.space()
            line.append(bytes); line.space(); line.append(micros); line.append("us id="); line.append(flight.requestID)
        }
    }

    /// Answers a request that cannot be read (or timed out), then closes: the framing is lost.
    private func respondAndClose(_ problem: ProblemDetails) {
        let before = output.count
        ResponseSerializer.write(problem.response, date: loop.date, keepAlive: false, includeBody: true, into: &output)
        closeAfterWrite = true
        inputStart = input.count
        let timestamp = loop.timestamp, written = output.count - before
        loop.log { line in
            line.append(timestamp); line.space(); line.append(peer); line.append(" \"-\" ")
            line.append(problem.status); line.space(); line.append(written); line.append(" 0us id=-")
        }
        flush()
    }

    // MARK: Writing

    private func flush() {
        while !closed && outputStart < output.count {
            let sent = try? syscall("send") {
                // Safe: outputStart < output.count inside this loop, so the pointer stays in the buffer.
                output.withUnsafeBytes { bytes in
                    send(fd, bytes.baseAddress! + outputStart, bytes.count - outputStart, Int32(MSG_NOSIGNAL))
                }
            }
            switch sent {
            case .done(let count)? where count > 0:
                outputStart += count
            case .wouldBlock?:
                updateInterest()
                return
            default:
                close() // EPIPE, ECONNRESET: the client went away mid-response.
                return
            }
        }
        if closed { return }
        output.removeAll(keepingCapacity: output.capacity <= 64 * 1024)
        outputStart = 0
        if closeAfterWrite { lingerThenClose() }
    }

    /// Half-closes, then keeps reading for a moment so unread request bytes do not turn the
    /// close into a reset that would destroy the response (RFC 9112 §9.6).
    private func lingerThenClose() {
        guard lingerDeadline == nil else { return }
        shutdown(fd, Int32(SHUT_WR))
        lingerDeadline = loop.now + shared.configuration.lingerSeconds
        input = []
        inputStart = 0
        discardInput()
        if !closed { setInterest(EPOLLIN.rawValue | EPOLLRDHUP.rawValue) }
    }

    private func compactInput() {
        if inputStart >= input.count {
            input.removeAll(keepingCapacity: input.capacity <= 16 * 1024)
            inputStart = 0
        } else if inputStart > 32 * 1024 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// Reads while there is room; writes while output waits.
    private func updateInterest() {
        guard !closed, lingerDeadline == nil else { return }
        var events = EPOLLRDHUP.rawValue
        let full = inFlight != nil && input.count - inputStart >= Connection.maxBufferedInput
        if !peerClosedInput && !full { events |= EPOLLIN.rawValue }
        if outputStart < output.count { events |= EPOLLOUT.rawValue }
        setInterest(events)
    }

    private func setInterest(_ events: UInt32) {
        guard events != watchedEvents else { return }
        watchedEvents = events
        loop.modify(fd, events: events)
    }

    func terminate() { close() }

    func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd)
        Glibc.close(fd)
        shared.metrics.connectionClosed()
        input = []
        output = []
    }
}
