@testable import ActivityImport

/// Builds small FIT files byte by byte, so the reader is tested on inputs whose
/// every field the test controls (header, definitions, endianness, compressed
/// timestamps, developer fields, CRCs).
struct FITWriter {
    var records: [UInt8] = []
    var bigEndian = false

    static let epoch = 631_065_600.0

    /// Local type 0 = file_id, 1 = sport, 2 = record (timestamp, lat, lon, altitude, speed), with `developerBytes` of developer data.
    mutating func defineStandardMessages(developerBytes: Int = 0) {
        define(local: 0, global: 0, fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84)])
        define(local: 1, global: 12, fields: [(0, 1, 0x00), (1, 1, 0x00)])
        define(local: 2, global: 20, fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84)],
               developerBytes: developerBytes)
        // Local 3: a record without its own timestamp, for compressed-timestamp headers.
        define(local: 3, global: 20, fields: [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84)])
    }

    mutating func define(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)], developerBytes: Int = 0) {
        records.append(0x40 | (developerBytes > 0 ? 0x20 : 0) | local)
        records.append(0)
        records.append(bigEndian ? 1 : 0)
        records += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        records.append(UInt8(fields.count))
        for (number, size, type) in fields { records += [number, size, type] }
        if developerBytes > 0 { records += [1, 0, UInt8(developerBytes), 0] }
    }

    mutating func fileID(manufacturer: UInt16 = 1, product: UInt16 = 2) {
        records.append(0)
        records.append(4) // activity
        records += int(UInt64(manufacturer), 2) + int(UInt64(product), 2)
    }

    mutating func sport(_ value: UInt8) {
        records.append(1)
        records += [value, 0]
    }

    mutating func record(time: Double, lat: Double, lon: Double, altitude: Double, speed: Double, developerBytes: Int = 0) {
        records.append(2)
        records += int(UInt64(time - Self.epoch), 4)
        records += int(UInt64(UInt32(bitPattern: Int32((lat * 2_147_483_648.0 / 180).rounded()))), 4)
        records += int(UInt64(UInt32(bitPattern: Int32((lon * 2_147_483_648.0 / 180).rounded()))), 4)
        records += int(UInt64(((altitude + 500) * 5).rounded()), 2)
        records += int(UInt64((speed * 1000).rounded()), 2)
        records += [UInt8](repeating: 0xAB, count: developerBytes)
    }

    /// A record with a compressed-timestamp header: 5 bits of time offset.
    mutating func compressedRecord(offset: UInt8, lat: Double, lon: Double, altitude: Double, speed: Double) {
        records.append(0x80 | (3 << 5) | (offset & 0x1F))
        records += int(UInt64(UInt32(bitPattern: Int32((lat * 2_147_483_648.0 / 180).rounded()))), 4)
        records += int(UInt64(UInt32(bitPattern: Int32((lon * 2_147_483_648.0 / 180).rounded()))), 4)
        records += int(UInt64(((altitude + 500) * 5).rounded()), 2)
        records += int(UInt64((speed * 1000).rounded()), 2)
    }

    func file() -> [UInt8] {
        var header: [UInt8] = [14, 0x20, 0x08, 0x08]
        let size = UInt32(records.count)
        header += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        header += Array(".FIT".utf8)
        let headerCRC = header.withUnsafeBufferPointer { FITCRC.checksum($0, 0..<12) }
        header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        var bytes = header + records
        let crc = bytes.withUnsafeBufferPointer { FITCRC.checksum($0, 0..<$0.count) }
        bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return bytes
    }

    private func int(_ value: UInt64, _ size: Int) -> [UInt8] {
        let little = (0..<size).map { UInt8((value >> (8 * UInt64($0))) & 0xFF) }
        return bigEndian ? little.reversed() : little
    }
}

/// A minimal zip writer (stored or deflated entries) for Slopes and Ski Tracks archives built in tests.
enum TestZip {
    static func archive(_ entries: [(String, [UInt8])], deflate: Bool = true) throws -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (path, contents) in entries {
            let data = deflate ? try RawDeflate.compress(contents) : contents
            let crc = CRC32.checksum(contents)
            let name = Array(path.utf8)
            let offset = out.count
            out += le32(0x0403_4b50) + le16(20) + le16(0) + le16(deflate ? 8 : 0) + le16(0) + le16(0)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(contents.count)) + le16(UInt16(name.count)) + le16(0) + name + data
            central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(deflate ? 8 : 0) + le16(0) + le16(0)
            central += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(contents.count))
            central += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + name
        }
        let directoryOffset = out.count
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return out
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }
}

import ZipArchive
