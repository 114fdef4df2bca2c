import Glibc

/// A joinable POSIX thread, for the server's loops and the stores' workers. Used instead of
/// Foundation's `Thread`, which would link Foundation (and its ICU data) into the binary for
/// nothing else; whoever starts one joins it, so nothing is left running after a stop.
public final class JoinableThread: Sendable {
    private let thread: pthread_t

    private init(thread: pthread_t) { self.thread = thread }

    /// Runs `body` on a new thread; throws the errno of a failed `pthread_create`.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(ThreadStartError) -> JoinableThread {
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
            throw ThreadStartError(errno: result)
        }
        return JoinableThread(thread: thread)
    }

    /// Waits for the thread to return; 0, or the errno of a failed `pthread_join`. Call once.
    public func join() -> Int32 {
        pthread_join(thread, nil)
    }
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// `pthread_create` failed with this errno (EAGAIN: the system's thread limit).
public struct ThreadStartError: Error, Sendable, CustomStringConvertible {
    public let errno: Int32
    public var description: String { "pthread_create failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}
