/// Why a zip archive or one of its entries could not be read.
public enum ZipError: Error, Equatable, CustomStringConvertible {
    case notAZipArchive
    case truncated(String)
    case malformed(String)
    case encrypted(path: String)
    case unsupportedMethod(path: String, method: UInt16)
    case checksumMismatch(path: String, expected: UInt32, actual: UInt32)
    case sizeMismatch(path: String, expected: Int, actual: Int)
    case entryTooLarge(path: String, size: Int, limit: Int)
    case entryNotFound(String)
    case inflate(path: String, RawDeflateError)

    public var description: String {
        switch self {
        case .notAZipArchive:
            return "not a zip archive: no end-of-central-directory record found"
        case .truncated(let what):
            return "zip archive is truncated: \(what)"
        case .malformed(let what):
            return "zip archive is malformed: \(what)"
        case .encrypted(let path):
            return "zip entry '\(path)' is encrypted; export it without a password"
        case .unsupportedMethod(let path, let method):
            return "zip entry '\(path)' uses compression method \(method); only stored (0) and deflate (8) are supported"
        case .checksumMismatch(let path, let expected, let actual):
            return "zip entry '\(path)' is corrupt: CRC-32 \(hex(actual)) does not match the recorded \(hex(expected))"
        case .sizeMismatch(let path, let expected, let actual):
            return "zip entry '\(path)' inflated to \(actual) bytes but the archive records \(expected)"
        case .entryTooLarge(let path, let size, let limit):
            return "zip entry '\(path)' is \(size) bytes, above the \(limit)-byte limit"
        case .entryNotFound(let name):
            return "zip archive has no entry named '\(name)'"
        case .inflate(let path, let error):
            return "zip entry '\(path)': \(error)"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
