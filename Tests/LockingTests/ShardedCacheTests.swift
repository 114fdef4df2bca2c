import Locking
import Testing

@Suite("A sharded cache keeps what is hot and never returns what was removed")
struct ShardedCacheTests {
    @Test("hot entries survive cold traffic many times the capacity")
    func hotEntriesSurvive() {
        let cache = ShardedCache<String, Int>(capacity: 64, shardCount: 1)
        let hot = (0..<8).map { "hot-\($0)" }
        for (index, key) in hot.enumerated() { cache.withShard(of: key) { $0.store(key, index) } }
        for round in 0..<1_000 {
            let cold = "cold-\(round)"
            cache.withShard(of: cold) { $0.store(cold, round) }
            for (index, key) in hot.enumerated() {
                #expect(cache.withShard(of: key) { $0.value(key) } == index, "round \(round), \(key)")
            }
        }
    }

    @Test("it holds at most about its capacity: cold entries are dropped")
    func bounded() {
        let cache = ShardedCache<Int, Int>(capacity: 100, shardCount: 1)
        for key in 0..<10_000 { cache.withShard(of: key) { $0.store(key, key) } }
        let kept = (0..<10_000).filter { key in cache.withShard(of: key) { $0.value(key) } != nil }
        #expect(kept.count <= 100)
        #expect(kept.contains(9_999))
        #expect(!kept.contains(0))
    }

    @Test("a stored value replaces the older one in either generation, and remove forgets both")
    func replaceAndRemove() {
        let cache = ShardedCache<String, Int>(capacity: 4, shardCount: 1)
        cache.withShard(of: "a") { $0.store("a", 1) }
        cache.withShard(of: "b") { $0.store("b", 1) }
        cache.withShard(of: "c") { $0.store("c", 1) } // "a" and "b" move to the older generation
        cache.withShard(of: "a") { $0.store("a", 2) }
        #expect(cache.withShard(of: "a") { $0.value("a") } == 2)
        cache.withShard(of: "b") { $0.remove("b") }
        #expect(cache.withShard(of: "b") { $0.value("b") } == nil)
        cache.withShard(of: "a") { $0.remove("a") }
        #expect(cache.withShard(of: "a") { $0.value("a") } == nil)
    }

    @Test("value(of:) makes a value once, reuses it while it is current, and makes it again when not")
    func lookupOrMake() {
        let cache = ShardedCache<String, Int>(capacity: 64)
        var made = 0
        func make() -> Int {
            made += 1
            return made
        }
        #expect(cache.value(of: "a", orMake: make) == 1)
        #expect(cache.value(of: "a", orMake: make) == 1)
        #expect(cache.value(of: "a", isCurrent: { $0 >= 2 }, orMake: make) == 2)
        #expect(cache.value(of: "a", orMake: make) == 2)
        #expect(cache.value(of: "b", orMake: make) == 3)
        #expect(made == 3)
    }

    @Test("colliding hashes: every key stays findable through stores and removals, as a dictionary would",
          arguments: [3, 7, 1_000])
    func collisionsBehaveLikeADictionary(distinctHashes: Int) {
        // Room for every key, so nothing is dropped and the cache must agree with the model. Few
        // distinct hashes make long probe runs that overlap; 0 among them is stored as 1.
        let cache = ShardedCache<Int, Int>(capacity: 2_000, shardCount: 1) { UInt64($0 % distinctHashes) }
        var model: [Int: Int] = [:]
        var random: UInt64 = 42
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(random >> 33) % bound
        }
        for step in 0..<20_000 {
            let key = next(300)
            switch next(3) {
            case 0:
                cache.withShard(of: key) { $0.store(key, step) }
                model[key] = step
            case 1:
                cache.withShard(of: key) { $0.remove(key) }
                model[key] = nil
            default:
                #expect(cache.withShard(of: key) { $0.value(key) } == model[key], "step \(step), key \(key)")
            }
        }
        for key in 0..<300 {
            #expect(cache.withShard(of: key) { $0.value(key) } == model[key], "key \(key)")
        }
    }
}
