import Digest
import Foundation
import ZipArchive

/// Reads any supported recording: detects the format from the bytes (the
/// extension only breaks ties), then parses it into a `ParsedActivity` or
/// refuses it with an `ActivityImportError` naming the file and the place.
public enum ActivityParser {
    /// One recording may be at most 256 MiB: a full day at 1 Hz is a few megabytes.
    public static let sizeLimit = 256 << 20

    public static func parse(_ bytes: [UInt8], fileName: String,
                             now: Double = Date().timeIntervalSince1970) throws(ActivityImportError) -> ParsedActivity {
        guard !bytes.isEmpty else { throw ActivityImportError(file: fileName, .empty) }
        guard bytes.count <= sizeLimit else { throw ActivityImportError(file: fileName, .tooLarge(bytes: bytes.count, limit: sizeLimit)) }
        let hash = SHA256.hex(bytes)
        let format = try detect(bytes, fileName: fileName)
        switch format {
        case .slopes, .skiz:
            let archive: ZipArchive
            do {
                archive = try ZipArchive(bytes: bytes)
            } catch {
                if case .truncated = error { throw ActivityImportError(file: fileName, .truncated(error.description)) }
                throw ActivityImportError(file: fileName, .malformed(error.description))
            }
            let names = Set(archive.entries.map(\.fileName))
            if names.contains("Nodes.csv") && !names.contains("GPS.csv") && !names.contains("RawGPS.csv") {
                return try SkiTracksParser.parse(archive, fileName: fileName, hash: hash, now: now)
            }
            return try SlopesParser.parse(archive, fileName: fileName, hash: hash, now: now)
        default:
            return try bytes.withUnsafeBufferPointer { (buffer) throws(ActivityImportError) in
                switch format {
                case .fit: return try FITParser.parse(buffer, fileName: fileName, hash: hash, now: now)
                case .tcx: return try TCXParser.parse(buffer, fileName: fileName, hash: hash, now: now)
                default: return try GPXParser.parse(buffer, fileName: fileName, hash: hash, now: now)
                }
            }
        }
    }

    /// Reads and parses a file from disk.
    public static func parse(contentsOf url: URL, now: Double = Date().timeIntervalSince1970) throws(ActivityImportError) -> ParsedActivity {
        let name = url.lastPathComponent
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ActivityImportError(file: name, .malformed("cannot read the file: \(error.localizedDescription)"))
        }
        return try parse(Array(data), fileName: name, now: now)
    }

    /// The format of `bytes`: content first (FIT signature, zip magic, the XML
    /// root within the first 4 KiB), then the file extension.
    public static func detect(_ bytes: [UInt8], fileName: String) throws(ActivityImportError) -> ActivityFormat {
        let fileExtension = (fileName as NSString).pathExtension.lowercased()
        if bytes.count >= 12, bytes[8] == 0x2E, bytes[9] == 0x46, bytes[10] == 0x49, bytes[11] == 0x54 { return .fit }
        if ZipArchive.looksLikeZip(bytes) { return fileExtension == "skiz" ? .skiz : .slopes }
        if bytes.starts(with: Array("SQLite format 3".utf8)) {
            throw ActivityImportError(file: fileName, .malformed("this is a legacy Slopes database, which Summit does not read; export the day again from a current Slopes version"))
        }
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self).lowercased()
        if head.contains("<trainingcenterdatabase") { return .tcx }
        if head.contains("<gpx") { return .gpx }
        switch fileExtension {
        case "fit": return .fit
        case "tcx": return .tcx
        case "gpx": return .gpx
        case "slopes": return .slopes
        case "skiz": return .skiz
        default: throw ActivityImportError(file: fileName, .unrecognizedFormat)
        }
    }
}
