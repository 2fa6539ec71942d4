/// Encodes header lists as HPACK (RFC 7541) without touching the dynamic table:
/// a field found whole in the static table is indexed, a known name is referenced
/// by index, everything else is a plain literal. Requests to APNs are a handful of
/// short headers, so indexing would save little, and never indexing means the
/// encoder keeps no state the peer could get out of step with.
enum HPACKEncoder {
    static func encode(_ headers: [(name: String, value: String)]) -> [UInt8] {
        var block: [UInt8] = []
        for (name, value) in headers {
            if let index = HPACKStaticTable.entries.firstIndex(where: { $0.name == name && $0.value == value }) {
                appendInteger(UInt64(index + 1), prefixBits: 7, flags: 0x80, to: &block)
            } else if let index = HPACKStaticTable.entries.firstIndex(where: { $0.name == name }) {
                appendInteger(UInt64(index + 1), prefixBits: 4, flags: 0x00, to: &block)
                appendString(value, to: &block)
            } else {
                block.append(0x00)
                appendString(name, to: &block)
                appendString(value, to: &block)
            }
        }
        return block
    }

    static func appendInteger(_ value: UInt64, prefixBits: Int, flags: UInt8, to block: inout [UInt8]) {
        let limit = UInt64((1 << prefixBits) - 1)
        guard value >= limit else {
            block.append(flags | UInt8(value))
            return
        }
        block.append(flags | UInt8(limit))
        var rest = value - limit
        while rest >= 0x80 {
            block.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        block.append(UInt8(rest))
    }

    static func appendString(_ text: String, to block: inout [UInt8]) {
        let bytes = Array(text.utf8)
        appendInteger(UInt64(bytes.count), prefixBits: 7, flags: 0x00, to: &block)
        block.append(contentsOf: bytes)
    }
}
