import Testing
import ZipArchive

@Suite("Zip archives and raw deflate")
struct ZipArchiveTests {
    private let text = Array(String(repeating: "Summit lift line. ", count: 400).utf8)

    @Test("stored and deflated entries extract with their CRC checked")
    func storedAndDeflated() throws {
        let bytes = try ZipWriter(entries: [
            .init(path: "dir/plain.txt", contents: text, deflate: false),
            .init(path: "packed.bin", contents: text, deflate: true),
        ], comment: Array("an archive comment".utf8)).archive()
        #expect(ZipArchive.looksLikeZip(bytes))
        let archive = try ZipArchive(bytes: bytes)
        #expect(archive.entries.map(\.path) == ["dir/plain.txt", "packed.bin"])
        #expect(archive.entries[0].fileName == "plain.txt")
        #expect(archive.entries[1].method == .deflated && archive.entries[1].compressedSize < text.count)
        #expect(try archive.extract(path: "dir/plain.txt") == text)
        #expect(try archive.extract(path: "packed.bin") == text)
    }

    @Test("a corrupt entry is refused by its CRC")
    func crcMismatch() throws {
        let bytes = try ZipWriter(entries: [.init(path: "a.txt", contents: text, deflate: true, crcOverride: 0xDEAD_BEEF)]).archive()
        let archive = try ZipArchive(bytes: bytes)
        #expect(throws: ZipError.checksumMismatch(path: "a.txt", expected: 0xDEAD_BEEF, actual: CRC32.checksum(text))) {
            try archive.extract(path: "a.txt")
        }
    }

    @Test("not a zip, truncated data, missing entries and size caps are clear errors")
    func errors() throws {
        #expect(throws: ZipError.notAZipArchive) { try ZipArchive(bytes: Array("hello, not a zip at all".utf8)) }
        let bytes = try ZipWriter(entries: [.init(path: "a.txt", contents: text, deflate: true)]).archive()
        let archive = try ZipArchive(bytes: bytes)
        #expect(throws: ZipError.entryNotFound("b.txt")) { try archive.extract(path: "b.txt") }
        #expect(throws: ZipError.entryTooLarge(path: "a.txt", size: text.count, limit: 10)) { try archive.extract(path: "a.txt", limit: 10) }
        var damaged = bytes
        damaged[40] ^= 0xFF   // inside the deflate stream
        let damagedArchive = try ZipArchive(bytes: damaged)
        #expect(throws: ZipError.self) { try damagedArchive.extract(path: "a.txt") }
    }

    @Test("raw deflate round-trips and enforces its output cap")
    func rawDeflate() throws {
        let compressed = try RawDeflate.compress(text)
        #expect(try RawDeflate.decompress(compressed, limit: text.count) == text)
        #expect(throws: RawDeflateError.tooLarge(limit: 100)) { try RawDeflate.decompress(compressed, limit: 100) }
        #expect(throws: RawDeflateError.truncated) { try RawDeflate.decompress(Array(compressed.prefix(10)), limit: 1 << 20) }
        // Same input, same level: same bytes.
        #expect(try RawDeflate.compress(text) == compressed)
    }
}
