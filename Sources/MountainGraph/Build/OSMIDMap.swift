/// OSM id → dense index, the builder's hottest lookup.
///
/// Swift's `Dictionary` hashes every key with seeded SipHash, which is most of
/// the cost of the vertex table on a resort. OSM ids are not chosen by an
/// adversary here (they come from a reviewed snapshot), so a multiplicative
/// hash with linear probing is safe and several times cheaper. Iteration order
/// is never exposed, so determinism does not depend on the hash.
struct OSMIDMap {
    private var keys: [Int64]
    private var values: [Int32]
    private var occupied: [Bool]
    private var shift: UInt64
    private(set) var count = 0

    init(minimumCapacity: Int = 16) {
        var capacity = 16
        while capacity < minimumCapacity * 2 { capacity <<= 1 }
        keys = Array(repeating: 0, count: capacity)
        values = Array(repeating: 0, count: capacity)
        occupied = Array(repeating: false, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
    }

    @inline(__always)
    private func slot(of key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    subscript(key: Int64) -> Int? {
        let mask = keys.count - 1
        var slot = slot(of: key)
        while occupied[slot] {
            if keys[slot] == key { return Int(values[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `key` unless `key` is already there; returns the value already there.
    mutating func insertIfAbsent(_ value: Int, forKey key: Int64) -> Int? {
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var slot = slot(of: key)
        while occupied[slot] {
            if keys[slot] == key { return Int(values[slot]) }
            slot = (slot + 1) & mask
        }
        occupied[slot] = true
        keys[slot] = key
        values[slot] = Int32(value)
        count += 1
        return nil
    }

    private mutating func grow() {
        var larger = OSMIDMap(minimumCapacity: keys.count)
        for slot in keys.indices where occupied[slot] {
            _ = larger.insertIfAbsent(Int(values[slot]), forKey: keys[slot])
        }
        self = larger
    }
}
