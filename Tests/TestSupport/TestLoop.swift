import ASCIIKit
import HTTP1
import Locking

/// A loop that runs every task at once, on whatever thread asks, and keeps the log lines.
final class TestLoop: RequestLoop {
    private let logged = Locked<[String]>([])

    var isCurrent: Bool { true }
    func execute(_ task: @escaping @Sendable () -> Void) { task() }
    func appendLogLine(_ write: (inout ByteBuffer) -> Void) {
        var line = ByteBuffer()
        write(&line)
        let text = String(decoding: line.bytes, as: UTF8.self)
        logged.withLock { $0.append(text) }
    }
    var lines: [String] { logged.withLock { $0 } }
}
