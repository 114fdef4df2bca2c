import Foundation
import Glibc

/// A blocking TCP client that speaks raw bytes, for tests that must control exactly what goes
/// on the wire (pipelining, split heads, vanishing clients). Reads time out instead of hanging.
public final class RawHTTPClient {
    /// A response as read off the wire.
    public struct Response: Sendable {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]

        public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a read did not produce a response.
    public enum ClientError: Error {
        case connectFailed(Int32)
        case timedOut
        case closed
        case malformed(String)
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`, from `source` (another loopback address, as a second client
    /// machine would) when given.
    public init(port: Int, timeoutSeconds: Int = 10, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound != 0 { throw ClientError.connectFailed(errno) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 {
            // No close here: an init that throws once every property is set still runs deinit,
            // which closes `fd`; closing it here too closed another thread's new socket.
            throw ClientError.connectFailed(errno)
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Sends bytes; returns false when the server has closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends `bytes` from a thread of its own, as a client that writes all its requests before
    /// reading any answer: a server that stops reading such a client would block a send made
    /// here until the test reads. The thread ends when all is sent or the connection closes.
    public func sendFromAnotherThread(_ bytes: [UInt8]) {
        let fd = fd
        Thread {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if sent <= 0 { return }
                offset += sent
            }
        }.start()
    }

    /// Sends text, with `\n` turned into CRLF when `crlf` is true.
    @discardableResult
    public func send(_ text: String, crlf: Bool = true) -> Bool {
        send(crlf ? Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8) : Array(text.utf8))
    }

    /// Reads one response. `headRequest` says the response has no body despite Content-Length.
    public func readResponse(headRequest: Bool = false) throws -> Response {
        var headEnd: Int?
        while headEnd == nil {
            if let range = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                headEnd = range.upperBound
            } else {
                try fill()
            }
        }
        let head = String(decoding: buffer[..<(headEnd! - 4)], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw ClientError.malformed(statusLine) }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        buffer.removeFirst(headEnd!)
        if status == 100 { return try readResponse(headRequest: headRequest) }
        let length = headRequest || status == 304 || status == 204 ? 0
            : Int(headers.first { $0.name == "content-length" }?.value ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads the interim `100 Continue` line, if that is what comes next.
    public func readInterim() throws -> Int {
        while buffer.firstRange(of: Array("\r\n\r\n".utf8)) == nil { try fill() }
        let range = buffer.firstRange(of: Array("\r\n\r\n".utf8))!
        let line = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
        buffer.removeFirst(range.upperBound)
        return Int(line.split(separator: " ")[1]) ?? 0
    }

    /// True when the server closed the connection (EOF) within the read timeout.
    public func isClosedByServer() -> Bool {
        while true {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
            buffer += chunk[..<count]
        }
    }

    /// True when the server has neither sent anything nor closed the connection so far; looks
    /// without waiting and without consuming what is there.
    public func hasHeardNothing() -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 { buffer += chunk[..<count]; return }
        if count == 0 { throw ClientError.closed }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
        throw ClientError.closed
    }

    /// Closes abruptly with a reset (SO_LINGER 0), as a vanishing phone would.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}

extension RawHTTPClient {
    /// One request and its response on a fresh connection.
    public static func exchange(port: Int, _ request: String, headRequest: Bool = false) throws -> Response {
        let client = try RawHTTPClient(port: port)
        client.send(request)
        return try client.readResponse(headRequest: headRequest)
    }

    /// `method path` on a fresh connection, with a JSON body when `json` is given.
    public static func request(port: Int, _ method: String, _ path: String, json: String? = nil,
                               headers: [String: String] = [:]) throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\nHost: test\n"
        var allHeaders = headers
        if let json {
            if allHeaders["Content-Type"] == nil { allHeaders["Content-Type"] = "application/json" }
            allHeaders["Content-Length"] = String(json.utf8.count)
        }
        for (name, value) in allHeaders.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\n" }
        return try exchange(port: port, head + "\n" + (json ?? ""), headRequest: method == "HEAD")
    }
}
