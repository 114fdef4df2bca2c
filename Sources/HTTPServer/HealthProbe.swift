import CLinux
import Glibc

/// A minimal HTTP GET over a blocking socket for `ratings healthcheck`: container images of the
/// service carry no curl, so the binary checks itself.
public enum HealthProbe {
    /// Why a probe failed, for the exit message.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// GETs `url` (`http://HOST:PORT/PATH`, IPv4 or `localhost`) and returns the status code.
    public static func status(of url: String, timeoutSeconds: Int = 3) throws(Failure) -> Int {
        guard url.hasPrefix("http://") else { throw Failure(description: "only http:// URLs are supported: \(url)") }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        let parts = authority.split(separator: ":", maxSplits: 1)
        guard let hostPart = parts.first, let port = parts.count == 2 ? UInt16(parts[1]) : 80 else {
            throw Failure(description: "cannot read host and port from \(url)")
        }
        let host = hostPart == "localhost" ? "127.0.0.1" : String(hostPart)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw Failure(description: "not an IPv4 address: \(host)") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed (errno \(errno))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            // Safe: the pointer lives for this call and the size is the struct's own.
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to \(host):\(port) (errno \(errno))") }
        let request = Array("GET \(path.isEmpty ? "/" : path) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw Failure(description: "cannot send the request (errno \(errno))")
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while !response.contains(UInt8(ascii: "\n")) && response.count < 8192 {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            response += chunk[..<count]
        }
        let statusLine = String(decoding: response.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/1."), let status = Int(fields[1]) else {
            throw Failure(description: "no HTTP response from \(url)")
        }
        return status
    }
}
