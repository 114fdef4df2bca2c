import Glibc

/// A failed system call: the errno and the call's name, never user data.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let errno: Int32
    public let operation: String

    public var description: String { "\(operation) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The outcome of a non-blocking call: a result, or "would block" as a value rather than an error.
enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

/// Wraps every system call the server makes: retries on `EINTR`, turns `EAGAIN` into
/// `.wouldBlock`, and throws errno with the call's name otherwise.
@inline(__always)
func syscall<T: BinaryInteger>(_ operation: String, _ body: () -> T) throws(SystemError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = Glibc.errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(errno: code, operation: operation)
    }
}

/// Like `syscall`, for calls that never block.
@inline(__always)
@discardableResult
func syscallChecked<T: BinaryInteger>(_ operation: String, _ body: () -> T) throws(SystemError) -> T {
    switch try syscall(operation, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(errno: EAGAIN, operation: operation)
    }
}

/// Writes all of `bytes` to `fd`, waiting for room when the descriptor is non-blocking and full.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, operation: String) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
        let result = try syscall(operation) {
            // Safe: offset < bytes.count inside this loop, so the pointer stays in the buffer.
            write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        }
        switch result {
        case .done(let written): offset += written
        case .wouldBlock:
            var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&waiting, 1, 100)
        }
    }
}
