/// One file inside a zip archive, as its central directory describes it.
public struct ZipEntry: Sendable, Equatable {
    /// Compression methods this reader understands.
    public enum Method: Sendable, Equatable {
        case stored
        case deflated
        case unsupported(UInt16)
    }

    /// The path inside the archive, `/`-separated as the zip format requires.
    public let path: String
    public let method: Method
    public let crc32: UInt32
    public let compressedSize: Int
    public let uncompressedSize: Int
    /// Offset of the entry's local file header from the start of the archive.
    let localHeaderOffset: Int
    let isEncrypted: Bool

    /// Directories are stored as empty entries whose path ends with `/`.
    public var isDirectory: Bool { path.hasSuffix("/") }

    /// The last path component.
    public var fileName: String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}
