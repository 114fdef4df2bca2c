import Locking
import Testing

@Suite("A work queue hands a waiting taker the oldest items, a batch at a time")
struct WorkQueueBatchTests {
    @Test("a batch takes the oldest items up to its limit, in order; the rest wait for the next")
    func upToLimit() {
        let queue = WorkQueue<Int>()
        for n in 1...5 { queue.put(n) }
        #expect(queue.take(upTo: 3, beforeTaking: {}) == [1, 2, 3])
        #expect(queue.take(upTo: 3, beforeTaking: {}) == [4, 5])
        #expect(queue.count == 0)
    }

    @Test("items put while the taker yields, after it woke, join the same batch")
    func beforeTakingJoins() {
        let queue = WorkQueue<Int>()
        queue.put(1)
        #expect(queue.take(upTo: 10, beforeTaking: { queue.put(2); queue.put(3) }) == [1, 2, 3])
    }

    @Test("a taker waits for an item from another thread, and gets an empty batch once the queue is closed and empty")
    func waitsThenEnds() throws {
        let queue = WorkQueue<Int>()
        let producer = try JoinableThread.start(name: "producer") { queue.put(7) }
        #expect(queue.take(upTo: 4, beforeTaking: {}) == [7])
        #expect(producer.join() == 0)
        queue.put(8)
        queue.close()
        #expect(queue.take(upTo: 4, beforeTaking: {}) == [8], "what was queued before the close is still handed out")
        #expect(queue.take(upTo: 4, beforeTaking: {}) == [])
        #expect(!queue.put(9), "a closed queue takes nothing more")
    }
}
