import Glibc

/// A joinable POSIX thread. The server uses these instead of Foundation's `Thread`, which would
/// link Foundation (and its ICU data) into the binary for nothing else, and joins every one it
/// starts, so a stopped server has no thread left behind.
final class LoopThread: Sendable {
    private let thread: pthread_t

    private init(thread: pthread_t) { self.thread = thread }

    /// Runs `body` on a new thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) -> LoopThread {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            // Safe: `argument` is the box retained above; it is released exactly once, here.
            let body = Unmanaged<ThreadBody>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            throw SystemError(errno: result, operation: "pthread_create")
        }
        return LoopThread(thread: thread)
    }

    /// Waits for the thread to return. Call once.
    func join() throws(SystemError) {
        let result = pthread_join(thread, nil)
        guard result == 0 else { throw SystemError(errno: result, operation: "pthread_join") }
    }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
