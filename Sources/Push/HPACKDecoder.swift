/// Decodes HPACK header blocks (RFC 7541): indexed fields, literals with and
/// without indexing, dynamic table size updates, Huffman-coded strings, and the
/// dynamic table they build. One decoder per connection: the table is shared
/// by every header block the peer sends.
struct HPACKDecoder {
    /// The size we advertised in SETTINGS_HEADER_TABLE_SIZE (the default, 4096).
    let maximumTableSize: Int
    private(set) var tableSize: Int
    private var dynamicTable: [(name: String, value: String)] = []
    private var dynamicTableBytes = 0

    init(maximumTableSize: Int = 4096) {
        self.maximumTableSize = maximumTableSize
        self.tableSize = maximumTableSize
    }

    mutating func decode(_ block: [UInt8]) throws -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        var index = block.startIndex
        var fieldSeen = false
        while index < block.endIndex {
            let first = block[index]
            if first & 0x80 != 0 {
                let entry = try field(at: Int(try Self.integer(block, &index, prefixBits: 7)))
                headers.append(entry)
                fieldSeen = true
            } else if first & 0xC0 == 0x40 {
                let entry = try literal(block, &index, prefixBits: 6)
                headers.append(entry)
                insert(entry)
                fieldSeen = true
            } else if first & 0xE0 == 0x20 {
                // A size update is allowed only at the start of a block (§4.2).
                guard !fieldSeen else { throw HTTP2Error.compression("a table size update after a header field") }
                let size = Int(try Self.integer(block, &index, prefixBits: 5))
                guard size <= maximumTableSize else {
                    throw HTTP2Error.compression("the peer set its table to \(size) bytes, above our limit of \(maximumTableSize)")
                }
                tableSize = size
                evict(toFit: 0)
            } else {
                // 0000xxxx without indexing, 0001xxxx never indexed: same for a decoder.
                headers.append(try literal(block, &index, prefixBits: 4))
                fieldSeen = true
            }
        }
        return headers
    }

    private func field(at index: Int) throws -> (name: String, value: String) {
        let staticCount = HPACKStaticTable.entries.count
        if index >= 1 && index <= staticCount { return HPACKStaticTable.entries[index - 1] }
        let dynamicIndex = index - staticCount - 1
        guard index > staticCount, dynamicIndex < dynamicTable.count else {
            throw HTTP2Error.compression("header index \(index) is outside the tables")
        }
        return dynamicTable[dynamicIndex]
    }

    private mutating func literal(_ block: [UInt8], _ index: inout Int, prefixBits: Int) throws -> (name: String, value: String) {
        let nameIndex = Int(try Self.integer(block, &index, prefixBits: prefixBits))
        let name = nameIndex == 0 ? try Self.string(block, &index) : try field(at: nameIndex).name
        return (name, try Self.string(block, &index))
    }

    private mutating func insert(_ entry: (name: String, value: String)) {
        let size = entry.name.utf8.count + entry.value.utf8.count + 32
        evict(toFit: size)
        // An entry larger than the whole table empties it and is not added (§4.4).
        guard size <= tableSize else { return }
        dynamicTable.insert(entry, at: 0)
        dynamicTableBytes += size
    }

    private mutating func evict(toFit size: Int) {
        while !dynamicTable.isEmpty && dynamicTableBytes + size > tableSize {
            let last = dynamicTable.removeLast()
            dynamicTableBytes -= last.name.utf8.count + last.value.utf8.count + 32
        }
    }

    /// An HPACK integer (§5.1) whose first byte keeps `prefixBits` low bits.
    static func integer(_ block: [UInt8], _ index: inout Int, prefixBits: Int) throws -> UInt64 {
        guard index < block.endIndex else { throw HTTP2Error.compression("a header block ends inside an integer") }
        let mask = UInt8((1 << prefixBits) - 1)
        var value = UInt64(block[index] & mask)
        index += 1
        guard value == UInt64(mask) else { return value }
        var shift: UInt64 = 0
        while true {
            guard index < block.endIndex else { throw HTTP2Error.compression("a header block ends inside an integer") }
            let byte = block[index]
            index += 1
            guard shift <= 28 else { throw HTTP2Error.compression("a header integer is too large") }
            value += UInt64(byte & 0x7F) << shift
            shift += 7
            if byte & 0x80 == 0 { return value }
        }
    }

    /// A string literal (§5.2): a length with a Huffman flag, then the octets.
    static func string(_ block: [UInt8], _ index: inout Int) throws -> String {
        guard index < block.endIndex else { throw HTTP2Error.compression("a header block ends before a string") }
        let huffman = block[index] & 0x80 != 0
        let length = Int(try integer(block, &index, prefixBits: 7))
        guard length <= block.endIndex - index else { throw HTTP2Error.compression("a header string runs past its block") }
        let bytes = block[index..<index + length]
        index += length
        return String(decoding: huffman ? try HPACKHuffman.decode(bytes) : Array(bytes), as: UTF8.self)
    }
}
