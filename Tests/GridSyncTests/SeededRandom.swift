import Foundation

/// SplitMix64: a small, fast generator whose whole run follows from its seed,
/// so a failing convergence run is replayed exactly by its seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &self)] }

    /// One of `choices` with probability proportional to its weight.
    mutating func weighted<T>(_ choices: [(T, Int)]) -> T {
        var roll = Int.random(in: 0..<choices.reduce(0) { $0 + $1.1 }, using: &self)
        for (choice, weight) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[0].0
    }
}

extension SeededRandom {
    /// A version 4 UUID from the generator's bits: row ids that a seed replays.
    mutating func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// A phone's own stream of ids, replayed by the seed it came from.
final class SeededIDs {
    private var random: SeededRandom

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    func next() -> UUID { random.uuid() }
}
