import Dispatch

/// Runs a test's background work (a late answer, a lock released later, a sender beside a reader)
/// on a thread of its own.
///
/// Not on `DispatchQueue.global()`: on Linux its threads are the ones Swift concurrency runs
/// tests on, as many as there are cores, so while two other tests compute, work queued there
/// waits until one of them ends. A 500 ms answer once waited past a 10 s deadline that way under
/// ThreadSanitizer. A serial queue of its own is served by a thread outside that pool.
public enum OwnThread {
    /// Runs `work` on a new serial queue, after `milliseconds` when given.
    public static func run(afterMilliseconds milliseconds: Int = 0, _ work: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "test.own-thread")
        if milliseconds == 0 {
            queue.async(execute: work)
        } else {
            queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: work)
        }
    }
}
