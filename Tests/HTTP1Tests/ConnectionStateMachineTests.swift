@testable import HTTP1
import Testing

/// What a test does to the machine, as the IO shell would.
enum MachineEvent: Sendable, CustomStringConvertible {
    /// Bytes arrive at `at` seconds; the shell then reads until the machine waits.
    case bytes(String, at: Double = 0)
    /// The handler answers with `status` (`close`: the response asks to close); `unsent` bytes of
    /// the output stay queued after the write that follows it (the client is not reading).
    case response(Int, close: Bool = false, unsent: Int = 0, at: Double = 0)
    /// A write after the socket had room sent `sent` bytes and stopped with `remaining` queued.
    case blocked(remaining: Int, sent: Int, at: Double = 0)
    /// The queued output has been written.
    case flushed(at: Double = 0)
    case peerClosed(at: Double = 0)
    case drain(at: Double = 0)
    case tick(at: Double)
    case ioFailed

    var description: String {
        switch self {
        case .bytes(let text, _): return "bytes(\(text.debugDescription))"
        case .response(let status, let close, let unsent, _): return "response(\(status)\(close ? ", close" : "")\(unsent > 0 ? ", unsent \(unsent)" : ""))"
        case .blocked(let remaining, let sent, _): return "blocked(remaining \(remaining), sent \(sent))"
        case .flushed: return "flushed"
        case .peerClosed: return "peerClosed"
        case .drain: return "drain"
        case .tick(let at): return "tick(\(at))"
        case .ioFailed: return "ioFailed"
        }
    }
}

/// An action, reduced to what a table can say in a few words.
enum Did: Equatable, Sendable {
    case dispatch(String) // method and target
    case sendContinue
    case send(Int, keepAlive: Bool, body: Bool)
    case refuse(Int)
    case linger
    case close
}

/// One row of the table: a sequence of events and the actions each must produce.
struct MachineCase: Sendable, CustomTestStringConvertible {
    let name: String
    let steps: [(MachineEvent, [Did])]
    var finalState: ConnectionStateMachine.State? = nil
    /// Events of the sequence that cannot happen where they arrive (the shell never sends them).
    var impossible = 0
    var testDescription: String { name }
}

private let get = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
private let getB = "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"

/// Drives a machine like `Connection` does: a buffer of unread bytes, read until the machine waits.
private struct Shell {
    var machine: ConnectionStateMachine
    var buffer: [UInt8] = []

    init() {
        var limits = HTTPLimits()
        limits.headTimeoutSeconds = 10
        limits.bodyTimeoutSeconds = 30
        limits.idleTimeoutSeconds = 60
        limits.writeTimeoutSeconds = 30
        limits.maxUnsentOutputBytes = 100
        machine = ConnectionStateMachine(limits: limits, lingerSeconds: 2, now: 0)
    }

    mutating func apply(_ event: MachineEvent) -> [Did] {
        switch event {
        case .bytes(let text, let at):
            buffer += Array(text.utf8)
            return advance(at)
        case .response(let status, let close, let unsent, let at):
            var response = HTTPResponse(status: status)
            if close { response.headers.add("connection", "close") }
            let did = record(machine.responseReady(response, hasBufferedInput: !buffer.isEmpty, now: at))
            if unsent > 0 { machine.outputBlocked(remaining: unsent, sent: 0, now: at) }
            return did + advance(at)
        case .blocked(let remaining, let sent, let at):
            machine.outputBlocked(remaining: remaining, sent: sent, now: at)
            return advance(at)
        case .flushed(let at):
            return record(machine.outputFlushed(hasBufferedInput: !buffer.isEmpty, now: at)) + advance(at)
        case .peerClosed(let at):
            return record(machine.peerClosedInput(now: at))
        case .drain(let at):
            return record(machine.drain(hasBufferedInput: !buffer.isEmpty, now: at)) + advance(at)
        case .tick(let at):
            return record(machine.tick(now: at))
        case .ioFailed:
            return record(machine.ioFailed(now: 0))
        }
    }

    private mutating func advance(_ now: Double) -> [Did] {
        var did: [Did] = []
        while true {
            let (consumed, action) = buffer.withUnsafeBytes { machine.read($0, now: now) }
            buffer.removeFirst(consumed)
            if action == .none { return did }
            did += record(action)
        }
    }

    private func record(_ action: ConnectionStateMachine.Action) -> [Did] {
        switch action {
        case .none: return []
        case .dispatch(let request): return [.dispatch("\(request.method) \(request.target)")]
        case .sendContinue: return [.sendContinue]
        case .send(let response, let keepAlive, let includeBody): return [.send(response.status, keepAlive: keepAlive, body: includeBody)]
        case .refuse(let problem): return [.refuse(problem.status)]
        case .lingerThenClose: return [.linger]
        case .close: return [.close]
        }
    }
}

@Suite("The connection state machine, event by event, without sockets")
struct ConnectionStateMachineTests {
    static let cases: [MachineCase] = [
        MachineCase(name: "keep-alive: a request, its answer, back to idle", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200), [.send(200, keepAlive: true, body: true)]), (.flushed(), []),
        ], finalState: .idle(.flushed)),
        MachineCase(name: "HTTP/1.0 without keep-alive: answered with close, then a lingering close", steps: [
            (.bytes("GET /a HTTP/1.0\r\n\r\n"), [.dispatch("GET /a")]), (.response(200), [.send(200, keepAlive: false, body: true)]),
            (.flushed(), [.linger]), (.peerClosed(), [.close]),
        ], finalState: .closed),
        MachineCase(name: "HTTP/1.0 with keep-alive stays open", steps: [
            (.bytes("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"), [.dispatch("GET /a")]),
            (.response(200), [.send(200, keepAlive: true, body: true)]),
        ], finalState: .idle(.pending(unsent: 0))),
        MachineCase(name: "Connection: close from the client", steps: [
            (.bytes("GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"), [.dispatch("GET /a")]),
            (.response(200), [.send(200, keepAlive: false, body: true)]), (.flushed(), [.linger]),
        ], finalState: .lingering),
        MachineCase(name: "a response that asks to close closes", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, close: true), [.send(200, keepAlive: false, body: true)]),
        ], finalState: .closingAfterResponse(unsent: 0)),
        MachineCase(name: "HEAD is answered without a body", steps: [
            (.bytes("HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n"), [.dispatch("HEAD /a")]), (.response(200), [.send(200, keepAlive: true, body: false)]),
        ]),
        MachineCase(name: "pipelined: the second request waits for the first answer", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]), (.bytes(""), []),
            (.response(200), [.send(200, keepAlive: true, body: true), .dispatch("GET /b")]),
            (.response(204), [.send(204, keepAlive: true, body: true)]),
        ], finalState: .idle(.pending(unsent: 0))),
        MachineCase(name: "100-continue: sent once when the head asks, then the body is read", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n"), [.sendContinue]),
            (.bytes("{}"), []), (.bytes("{}"), [.dispatch("PUT /a")]),
        ]),
        MachineCase(name: "no 100-continue without Expect, nor for HTTP/1.0", steps: [
            (.bytes("PUT /a HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"), []), (.bytes("{}"), [.dispatch("PUT /a")]),
        ]),
        MachineCase(name: "a malformed request is refused, later input dropped, then a lingering close", steps: [
            (.bytes("GET /a HTTP/1.1\r\n\r\n"), [.refuse(400)]), (.bytes(get), []), (.response(200), []),
            (.flushed(), [.linger]), (.bytes("more"), []), (.tick(at: 2), [.close]),
        ], finalState: .closed, impossible: 1),
        MachineCase(name: "an oversized body is refused with 413", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 70000\r\n\r\n"), [.refuse(413)]),
        ], finalState: .closingAfterResponse(unsent: 0)),
        MachineCase(name: "slowloris: later bytes do not extend the head deadline", steps: [
            (.bytes("GET /a HT", at: 1), []), (.bytes("TP/1.1\r\n", at: 9), []), (.tick(at: 10.9), []),
            (.tick(at: 11), [.refuse(408)]), (.flushed(at: 11), [.linger]), (.tick(at: 13), [.close]),
        ]),
        MachineCase(name: "a body that stops arriving times out with 408", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n{", at: 5), []), (.tick(at: 34.9), []), (.tick(at: 35), [.refuse(408)]),
        ]),
        MachineCase(name: "an idle keep-alive connection closes after the idle timeout", steps: [
            (.tick(at: 59.9), []), (.tick(at: 60), [.close]), (.tick(at: 120), []),
        ], finalState: .closed),
        MachineCase(name: "a request in flight is not timed out as idle; a handler past the write timeout closes", steps: [
            (.bytes(get, at: 50), [.dispatch("GET /a")]), (.tick(at: 61), []), (.tick(at: 80), [.close]), (.response(200), []),
        ], finalState: .closed, impossible: 1), // the late answer: the shell drops it, the connection being closed
        MachineCase(name: "a response with no request in flight is ignored", steps: [
            (.response(200), []), (.bytes(get), [.dispatch("GET /a")]),
        ], impossible: 1),
        MachineCase(name: "drain when idle closes at once", steps: [(.drain(), [.close]), (.bytes(get), [])], finalState: .closed),
        MachineCase(name: "drain with part of a head closes", steps: [(.bytes("GET /a"), []), (.drain(), [.close])], finalState: .closed),
        MachineCase(name: "drain during a request answers it, with close", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.drain(), []), (.response(200), [.send(200, keepAlive: false, body: true)]),
            (.flushed(), [.linger]),
        ]),
        MachineCase(name: "drain while a body arrives: the request is still answered", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"), []), (.drain(), []), (.bytes("{}"), [.dispatch("PUT /a")]),
            (.response(201), [.send(201, keepAlive: false, body: true)]),
        ]),
        MachineCase(name: "drain: pipelined requests that arrived before it are answered", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]), (.drain(), []),
            (.response(200), [.send(200, keepAlive: true, body: true), .dispatch("GET /b")]),
            (.response(200), [.send(200, keepAlive: false, body: true)]),
        ]),
        MachineCase(name: "drain with a response still being written closes once it is out", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200), [.send(200, keepAlive: true, body: true)]), (.drain(), []),
            (.flushed(), [.close]),
        ], finalState: .closed),
        MachineCase(name: "the peer closes after its request: it is answered, then closed", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.peerClosed(), []), (.response(200), [.send(200, keepAlive: false, body: true)]),
            (.flushed(), [.linger]),
        ]),
        MachineCase(name: "the peer sends pipelined requests and closes: all are answered", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]), (.peerClosed(), []),
            (.response(200), [.send(200, keepAlive: true, body: true), .dispatch("GET /b")]),
            (.response(200), [.send(200, keepAlive: false, body: true)]),
        ]),
        MachineCase(name: "the peer closes mid-head: closed without an answer", steps: [(.bytes("GET /a"), []), (.peerClosed(), [.close])]),
        MachineCase(name: "the peer closes mid-body: closed without an answer", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n{"), []), (.peerClosed(), [.close]),
        ]),
        MachineCase(name: "the peer closes while idle", steps: [(.peerClosed(), [.close])], finalState: .closed),
        MachineCase(name: "the peer closes while its answer is still being written", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200), [.send(200, keepAlive: true, body: true)]), (.peerClosed(), []),
            (.flushed(), [.linger]),
        ]),
        MachineCase(name: "a failed read or write closes, and nothing happens after", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.ioFailed, [.close]), (.response(200), []), (.ioFailed, []), (.drain(), []),
            (.tick(at: 1_000), []), (.peerClosed(), []), (.flushed(), []),
        ], finalState: .closed, impossible: 5),
        MachineCase(name: "a lingering connection closes when the peer does", steps: [
            (.bytes("GET /a HTTP/1.0\r\n\r\n"), [.dispatch("GET /a")]), (.response(200), [.send(200, keepAlive: false, body: true)]),
            (.flushed(), [.linger]), (.drain(), []), (.peerClosed(), [.close]),
        ]),
        MachineCase(name: "a reader too slow for the last answer is closed at the write timeout", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, close: true), [.send(200, keepAlive: false, body: true)]),
            (.tick(at: 29), []), (.tick(at: 30), [.close]),
        ]),
        MachineCase(name: "answers left unread past the limit hold back pipelined requests until the client reads", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]),
            (.response(200, unsent: 101), [.send(200, keepAlive: true, body: true)]), (.bytes(""), []),
            (.blocked(remaining: 100, sent: 1), [.dispatch("GET /b")]),
        ], finalState: .handling(includeBody: true, keepAlive: true, .pending(unsent: 100))),
        MachineCase(name: "answers left unread up to the limit: pipelined requests go on", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]),
            (.response(200, unsent: 100), [.send(200, keepAlive: true, body: true), .dispatch("GET /b")]),
        ]),
        MachineCase(name: "the backlog held back: the next request is read once everything is out", steps: [
            (.bytes(get + getB), [.dispatch("GET /a")]), (.response(200, unsent: 5_000), [.send(200, keepAlive: true, body: true)]),
            (.flushed(), [.dispatch("GET /b")]),
        ]),
        MachineCase(name: "output standing still for the write timeout closes a keep-alive connection", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, unsent: 5_000, at: 1), [.send(200, keepAlive: true, body: true)]),
            (.tick(at: 30.9), []), (.tick(at: 31), [.close]),
        ], finalState: .closed),
        MachineCase(name: "output that moves extends the write deadline; standing still again closes", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, unsent: 5_000), [.send(200, keepAlive: true, body: true)]),
            (.blocked(remaining: 4_000, sent: 1_000, at: 20), []), (.tick(at: 49), []),
            (.blocked(remaining: 4_000, sent: 0, at: 49), []), (.tick(at: 50), [.close]),
        ], finalState: .closed),
        MachineCase(name: "once the answer is out, the idle timeout counts from then", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, unsent: 5_000), [.send(200, keepAlive: true, body: true)]),
            (.flushed(at: 20), []), (.tick(at: 79), []), (.tick(at: 80), [.close]),
        ], finalState: .closed),
        MachineCase(name: "output that moves keeps a reader of the last answer; standing still closes it", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, close: true, unsent: 5_000), [.send(200, keepAlive: false, body: true)]),
            (.blocked(remaining: 10, sent: 4_990, at: 25), []), (.tick(at: 54), []), (.tick(at: 55), [.close]),
        ], finalState: .closed),
        MachineCase(name: "a write reported with nothing queued changes nothing", steps: [
            (.blocked(remaining: 5_000, sent: 1), []), (.bytes(get), [.dispatch("GET /a")]),
        ], impossible: 1),
        MachineCase(name: "the peer closes while an answer is being written and a new head arrives: the answer is still written", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, unsent: 50), [.send(200, keepAlive: true, body: true)]),
            (.bytes("GET /b HT"), []), (.peerClosed(), []), (.flushed(), [.linger]),
        ], finalState: .lingering),
        MachineCase(name: "a drain while an answer is being written and a new head arrives: the answer is still written, then close", steps: [
            (.bytes(get), [.dispatch("GET /a")]), (.response(200, unsent: 50), [.send(200, keepAlive: true, body: true)]),
            (.bytes("GET /b HT"), []), (.drain(), []), (.flushed(), [.linger]),
        ], finalState: .lingering),
        MachineCase(name: "100 Continue is output like any other: written, then the body is read", steps: [
            (.bytes("PUT /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"), [.sendContinue]),
            (.flushed(), []), (.bytes("{}"), [.dispatch("PUT /a")]),
        ], finalState: .handling(includeBody: true, keepAlive: true, .flushed)),
        MachineCase(name: "leading empty lines before a request are skipped (RFC 9112 §2.2)", steps: [
            (.bytes("\r\n\r\n"), []), (.tick(at: 59), []), (.bytes(get), [.dispatch("GET /a")]),
        ]),
    ]

    @Test("each sequence of events produces exactly its actions", arguments: cases)
    func sequence(_ machineCase: MachineCase) {
        var shell = Shell()
        for (index, (event, expected)) in machineCase.steps.enumerated() {
            let did = shell.apply(event)
            #expect(did == expected, "step \(index + 1), \(event)")
        }
        if let finalState = machineCase.finalState {
            #expect(shell.machine.state == finalState)
        }
        #expect(shell.machine.impossibleEvents.count == machineCase.impossible, "\(shell.machine.impossibleEvents)")
    }

    @Test("reading stops behind a request in flight once the buffer is full, and after the peer's end")
    func backpressure() {
        var shell = Shell()
        #expect(shell.machine.wantsInput(buffered: 0, maxBufferedInput: 100))
        _ = shell.apply(.bytes(get))
        #expect(shell.machine.wantsInput(buffered: 99, maxBufferedInput: 100))
        #expect(!shell.machine.wantsInput(buffered: 100, maxBufferedInput: 100))
        _ = shell.apply(.peerClosed())
        #expect(!shell.machine.wantsInput(buffered: 0, maxBufferedInput: 100))
    }

    @Test("reading stops while more answers than the limit wait unread, and resumes once they are read")
    func outputBackpressure() {
        var shell = Shell()
        _ = shell.apply(.bytes(get))
        _ = shell.apply(.response(200, unsent: 101))
        #expect(!shell.machine.wantsInput(buffered: 0, maxBufferedInput: 1_000))
        _ = shell.apply(.blocked(remaining: 100, sent: 1))
        #expect(shell.machine.wantsInput(buffered: 0, maxBufferedInput: 1_000))
        _ = shell.apply(.bytes(getB))
        _ = shell.apply(.response(200, unsent: 5_000))
        #expect(!shell.machine.wantsInput(buffered: 0, maxBufferedInput: 1_000))
        _ = shell.apply(.flushed())
        #expect(shell.machine.wantsInput(buffered: 0, maxBufferedInput: 1_000))
    }
}
