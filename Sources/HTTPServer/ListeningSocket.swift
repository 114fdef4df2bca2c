import CLinux
import Glibc

/// A bound, listening, non-blocking TCP socket.
final class ListeningSocket {
    let fd: Int32
    /// The port actually bound (useful with port 0).
    let port: Int

    /// Whether `host` is what `init` binds: an IPv4 or IPv6 literal, or `localhost`.
    static func isAddress(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Binds `host:port` (IPv4 or IPv6 literal, or `localhost`) and listens.
    init(host: String, port: Int, backlog: Int32) throws(SystemError) {
        let resolvedHost = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let family: Int32
        if inet_pton(AF_INET, resolvedHost, &v4.sin_addr) == 1 {
            family = AF_INET
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        } else if inet_pton(AF_INET6, resolvedHost, &v6.sin6_addr) == 1 {
            family = AF_INET6
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        } else {
            throw SystemError(errno: EINVAL, operation: "inet_pton(\(host))")
        }
        let fd = try syscallChecked("socket") {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        do {
            var one: Int32 = 1
            try syscallChecked("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            if family == AF_INET {
                try syscallChecked("bind") {
                    // Safe: the pointer is used only for the duration of this call, with the struct's own size.
                    withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
                }
            } else {
                try syscallChecked("bind") {
                    // Safe: as above, for the IPv6 address.
                    withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) } }
                }
            }
            try syscallChecked("listen") { listen(fd, backlog) }
            var bound = sockaddr_in6()
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            try syscallChecked("getsockname") {
                // Safe: sockaddr_in6 is large enough for either family; `length` bounds the write.
                withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            }
            // sin6_port and sin_port sit at the same offset.
            self.port = Int(UInt16(bigEndian: bound.sin6_port))
            self.fd = fd
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// Accepts one pending connection as a non-blocking socket, with its peer address as text.
    func accept() throws(SystemError) -> IOResult<(Int32, String)> {
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        let result = try syscall("accept4") {
            // Safe: sockaddr_in6 holds either family; `length` bounds what the kernel writes.
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
        }
        guard case .done(let client) = result else { return .wouldBlock }
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return .done((client, Self.describe(address)))
    }

    private static func describe(_ address: sockaddr_in6) -> String {
        var address = address
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if address.sin6_family == sa_family_t(AF_INET) {
            // Safe: the kernel wrote a sockaddr_in here, which fits inside sockaddr_in6.
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    var addr = v4.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &addr, &text, socklen_t(text.count))
                }
            }
        } else {
            _ = inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private var isClosed = false

    /// Closes the socket so the port refuses new connections; later calls do nothing.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    deinit { close() }
}
