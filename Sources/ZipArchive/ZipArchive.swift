/// A read-only zip archive held in memory.
///
/// Reads the central directory (the authoritative list; local headers may carry
/// zero sizes when a data descriptor follows), supports stored and deflated
/// entries, Zip64 sizes and offsets, and checks every extracted entry's CRC-32.
/// Used for zipped SRTM tiles and for activity exports.
public struct ZipArchive: Sendable {
    public let entries: [ZipEntry]
    private let bytes: [UInt8]

    /// The default cap on one extracted entry: 512 MiB.
    public static let defaultEntryLimit = 512 << 20

    public init(bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        self.entries = try Self.readCentralDirectory(bytes)
    }

    /// The entry with exactly this path, if any.
    public func entry(path: String) -> ZipEntry? {
        entries.first { $0.path == path }
    }

    /// The contents of the entry with this path.
    public func extract(path: String, limit: Int = ZipArchive.defaultEntryLimit) throws(ZipError) -> [UInt8] {
        guard let entry = entry(path: path) else { throw .entryNotFound(path) }
        return try extract(entry, limit: limit)
    }

    /// The contents of `entry`, inflated if needed and checked against its CRC-32.
    public func extract(_ entry: ZipEntry, limit: Int = ZipArchive.defaultEntryLimit) throws(ZipError) -> [UInt8] {
        if entry.isEncrypted { throw .encrypted(path: entry.path) }
        if entry.uncompressedSize > limit {
            throw .entryTooLarge(path: entry.path, size: entry.uncompressedSize, limit: limit)
        }
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count else { throw .truncated("local header of '\(entry.path)'") }
        guard read32(bytes, header) == 0x0403_4b50 else {
            throw .malformed("no local file header for '\(entry.path)' at offset \(header)")
        }
        let nameLength = Int(read16(bytes, header + 26))
        let extraLength = Int(read16(bytes, header + 28))
        let start = header + 30 + nameLength + extraLength
        guard start + entry.compressedSize <= bytes.count else { throw .truncated("data of '\(entry.path)'") }
        let data = bytes[start..<(start + entry.compressedSize)]

        let output: [UInt8]
        switch entry.method {
        case .stored:
            output = Array(data)
        case .deflated:
            do {
                output = try RawDeflate.decompress(data, limit: limit, expectedSize: entry.uncompressedSize)
            } catch {
                throw .inflate(path: entry.path, error)
            }
        case .unsupported(let method):
            throw .unsupportedMethod(path: entry.path, method: method)
        }
        guard output.count == entry.uncompressedSize else {
            throw .sizeMismatch(path: entry.path, expected: entry.uncompressedSize, actual: output.count)
        }
        let crc = CRC32.checksum(output)
        guard crc == entry.crc32 else {
            throw .checksumMismatch(path: entry.path, expected: entry.crc32, actual: crc)
        }
        return output
    }

    /// True when `bytes` starts like a zip archive (a local file header or an
    /// empty archive's end record).
    public static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4b
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
    }
}
