/// Decoding HPACK's Huffman-coded strings (RFC 7541 §5.2), which servers use for
/// most header values. Summit's encoder never Huffman-codes, so only decoding is here.
enum HPACKHuffman {
    /// A binary tree over the code: `children[node][bit]` is the next node, or a
    /// leaf when `symbol[node]` is set.
    private struct Tree {
        var children: [[Int32]] = [[-1, -1]]
        var symbols: [Int16] = [-1]

        init() {
            for (symbol, entry) in HPACKHuffmanCode.codes.enumerated() {
                var node = 0
                for shift in stride(from: Int(entry.length) - 1, through: 0, by: -1) {
                    let bit = Int((entry.code >> UInt32(shift)) & 1)
                    if children[node][bit] < 0 {
                        children[node][bit] = Int32(children.count)
                        children.append([-1, -1])
                        symbols.append(-1)
                    }
                    node = Int(children[node][bit])
                }
                symbols[node] = Int16(symbol)
            }
        }
    }

    private static let tree = Tree()
    static let endOfString: Int16 = 256

    static func decode(_ bytes: ArraySlice<UInt8>) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 8 / 5)
        var node = 0
        // Bits read since the last complete symbol, and whether all of them were 1:
        // what is left at the end must be a prefix of EOS (all ones) of at most 7 bits.
        var pendingBits = 0
        var pendingAllOnes = true
        for byte in bytes {
            for shift in stride(from: 7, through: 0, by: -1) {
                let bit = Int((byte >> UInt8(shift)) & 1)
                let next = tree.children[node][bit]
                guard next >= 0 else { throw HTTP2Error.compression("an invalid Huffman code in a header") }
                node = Int(next)
                pendingBits += 1
                pendingAllOnes = pendingAllOnes && bit == 1
                let symbol = tree.symbols[node]
                if symbol >= 0 {
                    guard symbol != endOfString else {
                        throw HTTP2Error.compression("a Huffman-coded header contains the end-of-string symbol")
                    }
                    output.append(UInt8(symbol))
                    node = 0
                    pendingBits = 0
                    pendingAllOnes = true
                }
            }
        }
        guard pendingBits <= 7, pendingAllOnes else {
            throw HTTP2Error.compression("a Huffman-coded header ends with invalid padding")
        }
        return output
    }
}
