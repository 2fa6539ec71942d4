import ZipArchive

/// Builds small zip archives in memory so the reader is tested on bytes whose
/// every field the test controls.
struct ZipWriter {
    struct Entry {
        var path: String
        var contents: [UInt8]
        var deflate: Bool
        var crcOverride: UInt32? = nil
    }

    var entries: [Entry] = []
    var comment: [UInt8] = []

    func archive() throws -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let data = entry.deflate ? try RawDeflate.compress(entry.contents) : entry.contents
            let crc = entry.crcOverride ?? CRC32.checksum(entry.contents)
            let name = Array(entry.path.utf8)
            let offset = out.count
            out += le32(0x0403_4b50) + le16(20) + le16(0) + le16(entry.deflate ? 8 : 0) + le16(0) + le16(0)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(entry.contents.count))
            out += le16(UInt16(name.count)) + le16(0) + name + data
            central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(entry.deflate ? 8 : 0)
            central += le16(0) + le16(0) + le32(crc) + le32(UInt32(data.count)) + le32(UInt32(entry.contents.count))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + name
        }
        let centralOffset = out.count
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(UInt32(centralOffset)) + le16(UInt16(comment.count)) + comment
        return out
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
