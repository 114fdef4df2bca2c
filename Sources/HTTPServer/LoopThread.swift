import Glibc

/// Starts a detached POSIX thread. The server uses these instead of Foundation's `Thread`, which
/// would link Foundation (and its ICU data) into the binary for nothing else.
enum LoopThread {
    /// Runs `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws(SystemError) {
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
        pthread_detach(thread)
    }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
