import ZipArchive

/// Zip entry extraction with the reader's errors turned into import errors.
enum ArchiveReading {
    /// One entry inflated may be at most 64 MiB: a ski day's CSV is a few hundred kilobytes.
    static let entryLimit = 64 << 20

    static func extract(_ archive: ZipArchive, _ entry: ZipEntry, fileName: String) throws(ActivityImportError) -> [UInt8] {
        do {
            return try archive.extract(entry, limit: entryLimit)
        } catch {
            switch error {
            case .checksumMismatch, .sizeMismatch:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .checksumMismatch(error.description))
            case .truncated:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .truncated(error.description))
            default:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .malformed(error.description))
            }
        }
    }
}
