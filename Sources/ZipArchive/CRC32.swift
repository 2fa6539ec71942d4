import CZlib

/// The zip / PNG CRC-32 (polynomial 0xEDB88320), computed by zlib.
public enum CRC32 {
    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: uLong = crc32(0, nil, 0)
        let direct: uLong? = bytes.withContiguousStorageIfAvailable { buffer in
            crc32(crc, buffer.baseAddress, uInt(buffer.count))
        }
        if let direct { return UInt32(direct) }
        let copy = Array(bytes)
        crc = copy.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, uInt($0.count)) }
        return UInt32(crc)
    }
}
