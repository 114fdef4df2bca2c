import Foundation
import Locking
import Testing

@Suite("A joinable thread runs its body under its own name, as top -H and ps -T show it")
struct JoinableThreadTests {
    /// The name the kernel keeps for the calling thread.
    private static func ownName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    private static func nameSeen(starting name: String) throws -> String {
        let seen = Locked("")
        let thread = try JoinableThread.start(name: name) { seen.withLock { $0 = ownName() } }
        #expect(thread.join() == 0)
        return seen.withLock { $0 }
    }

    @Test("the body runs on a thread with the given name")
    func named() throws {
        #expect(try Self.nameSeen(starting: "loop-7") == "loop-7")
    }

    @Test("a name longer than Linux keeps is cut to its first 15 bytes, not refused")
    func longNameCut() throws {
        #expect(try Self.nameSeen(starting: "a-name-longer-than-fifteen-bytes") == "a-name-longer-t")
    }

    @Test("only the first join waits for the thread; a second returns 0 at once instead of joining a joined thread")
    func joinsOnce() throws {
        let finished = Locked(false)
        let thread = try JoinableThread.start(name: "join-once") {
            usleep(50_000)
            finished.withLock { $0 = true }
        }
        #expect(thread.join() == 0)
        #expect(finished.withLock { $0 }, "the first join waited for the body")
        #expect(thread.join() == 0)
    }
}
