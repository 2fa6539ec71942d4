extension ZipArchive {
    /// Locates the end-of-central-directory record (searching back over a
    /// possible archive comment) and reads every central directory entry.
    static func readCentralDirectory(_ bytes: [UInt8]) throws(ZipError) -> [ZipEntry] {
        guard bytes.count >= 22 else { throw .notAZipArchive }
        let searchStart = max(0, bytes.count - 22 - 0xFFFF)
        var end = -1
        var position = bytes.count - 22
        while position >= searchStart {
            if read32(bytes, position) == 0x0605_4b50 { end = position; break }
            position -= 1
        }
        guard end >= 0 else { throw .notAZipArchive }

        var entryCount = Int(read16(bytes, end + 10))
        var directorySize = Int(read32(bytes, end + 12))
        var directoryOffset = Int(read32(bytes, end + 16))

        // Zip64: the classic record holds 0xFFFF / 0xFFFFFFFF and a locator
        // just before it points at the 64-bit record.
        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            let locator = end - 20
            guard locator >= 0, read32(bytes, locator) == 0x0706_4b50 else {
                throw .malformed("Zip64 sizes without a Zip64 end-of-central-directory locator")
            }
            let record = Int(read64(bytes, locator + 8))
            guard record >= 0, record + 56 <= bytes.count, read32(bytes, record) == 0x0606_4b50 else {
                throw .malformed("Zip64 end-of-central-directory record missing")
            }
            entryCount = Int(read64(bytes, record + 32))
            directorySize = Int(read64(bytes, record + 40))
            directoryOffset = Int(read64(bytes, record + 48))
        }
        guard directoryOffset >= 0, directorySize >= 0, directoryOffset + directorySize <= bytes.count else {
            throw .truncated("central directory lies outside the file")
        }

        var entries = [ZipEntry]()
        entries.reserveCapacity(entryCount)
        var cursor = directoryOffset
        for index in 0..<entryCount {
            guard cursor + 46 <= bytes.count else { throw .truncated("central directory entry \(index)") }
            guard read32(bytes, cursor) == 0x0201_4b50 else {
                throw .malformed("central directory entry \(index) has a bad signature")
            }
            let flags = read16(bytes, cursor + 8)
            let methodCode = read16(bytes, cursor + 10)
            let crc = read32(bytes, cursor + 16)
            var compressed = UInt64(read32(bytes, cursor + 20))
            var uncompressed = UInt64(read32(bytes, cursor + 24))
            let nameLength = Int(read16(bytes, cursor + 28))
            let extraLength = Int(read16(bytes, cursor + 30))
            let commentLength = Int(read16(bytes, cursor + 32))
            var localOffset = UInt64(read32(bytes, cursor + 42))
            let nameStart = cursor + 46
            let extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= bytes.count else { throw .truncated("central directory entry \(index)") }
            let path = String(decoding: bytes[nameStart..<extraStart], as: UTF8.self)

            // The Zip64 extra field lists, in order, only the values whose
            // classic fields hold 0xFFFFFFFF.
            var extra = extraStart
            while extra + 4 <= extraStart + extraLength {
                let tag = read16(bytes, extra)
                let size = Int(read16(bytes, extra + 2))
                if tag == 0x0001 {
                    var field = extra + 4
                    if uncompressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + size {
                        uncompressed = read64(bytes, field); field += 8
                    }
                    if compressed == 0xFFFF_FFFF, field + 8 <= extra + 4 + size {
                        compressed = read64(bytes, field); field += 8
                    }
                    if localOffset == 0xFFFF_FFFF, field + 8 <= extra + 4 + size {
                        localOffset = read64(bytes, field)
                    }
                }
                extra += 4 + size
            }

            let method: ZipEntry.Method
            switch methodCode {
            case 0: method = .stored
            case 8: method = .deflated
            default: method = .unsupported(methodCode)
            }
            guard compressed <= UInt64(Int.max), uncompressed <= UInt64(Int.max), localOffset <= UInt64(Int.max) else {
                throw .malformed("entry '\(path)' records impossible sizes")
            }
            entries.append(ZipEntry(
                path: path, method: method, crc32: crc,
                compressedSize: Int(compressed), uncompressedSize: Int(uncompressed),
                localHeaderOffset: Int(localOffset), isEncrypted: flags & 1 != 0))
            cursor = next
        }
        return entries
    }
}

// Zip integers are little-endian.
@inline(__always) func read16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

@inline(__always) func read32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
        | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
}

@inline(__always) func read64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    UInt64(read32(bytes, offset)) | UInt64(read32(bytes, offset + 4)) << 32
}
