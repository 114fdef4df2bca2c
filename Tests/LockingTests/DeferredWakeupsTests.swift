import Locking
import Testing

/// Counts the wake-ups it is given.
private final class WakeCounter: Wakeable, @unchecked Sendable {
    // Safe: every test touches a counter from one thread only.
    var wakes = 0
    func wake() { wakes += 1 }
}

@Suite("Deferred wake-ups: a thread handing out a batch wakes each receiver once, after the batch")
struct DeferredWakeupsTests {
    @Test("outside a batch a wake-up happens at once")
    func immediate() {
        let loop = WakeCounter()
        DeferredWakeups.wake(loop)
        #expect(loop.wakes == 1)
    }

    @Test("inside a batch nothing is woken until it ends, then each target once however often it was asked")
    func deferredAndMerged() {
        let first = WakeCounter(), second = WakeCounter()
        DeferredWakeups.deferring {
            for _ in 0..<5 { DeferredWakeups.wake(first) }
            DeferredWakeups.wake(second)
            #expect(first.wakes == 0 && second.wakes == 0)
        }
        #expect(first.wakes == 1)
        #expect(second.wakes == 1)
    }

    @Test("a batch inside a batch leaves the waking to the outer one")
    func nested() {
        let loop = WakeCounter()
        DeferredWakeups.deferring {
            DeferredWakeups.deferring { DeferredWakeups.wake(loop) }
            #expect(loop.wakes == 0)
            DeferredWakeups.wake(loop)
        }
        #expect(loop.wakes == 1)
        DeferredWakeups.wake(loop)
        #expect(loop.wakes == 2, "after the batch, wake-ups are immediate again")
    }

    @Test("a batch holds back only its own thread's wake-ups")
    func perThread() {
        let loop = LockedCounter()
        DeferredWakeups.deferring {
            let thread = try? JoinableThread.start(name: "waker") { DeferredWakeups.wake(loop) }
            #expect(thread?.join() == 0)
            #expect(loop.count.withLock { $0 } == 1, "another thread's wake-up waited for this thread's batch")
        }
    }
}

/// A counter safe to wake from another thread.
private final class LockedCounter: Wakeable {
    let count = Locked(0)
    func wake() { count.withLock { $0 += 1 } }
}
