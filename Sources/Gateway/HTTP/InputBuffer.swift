/// Bytes read from a socket and not yet consumed by a parser.
struct InputBuffer {
    private(set) var storage: [UInt8] = []
    private(set) var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { count == 0 }

    subscript(offset: Int) -> UInt8 { storage[start + offset] }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        storage.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        storage.append(contentsOf: bytes)
    }

    /// The first `n` unconsumed bytes.
    func peek(_ n: Int) -> ArraySlice<UInt8> { storage[start..<(start + n)] }

    /// Takes the first `n` bytes.
    mutating func read(_ n: Int) -> ArraySlice<UInt8> {
        defer { consume(n) }
        return peek(n)
    }

    mutating func consume(_ n: Int) {
        start += n
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 64 * 1024)
            start = 0
        } else if start > 32 * 1024 && start * 2 > storage.count {
            storage.removeFirst(start)
            start = 0
        }
    }

    /// The offset of the first `byte` at or after `from`, if there is one.
    func firstIndex(of byte: UInt8, from: Int) -> Int? {
        var i = start + from
        while i < storage.count {
            if storage[i] == byte { return i - start }
            i += 1
        }
        return nil
    }
}
