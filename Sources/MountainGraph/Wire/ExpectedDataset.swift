/// The dataset identity a client asked for; a blob must match all of it.
public struct ExpectedDataset: Sendable, Equatable {
    public var resortID: String
    public var manifestVersion: Int
    public var snapshotDate: String
    /// SHA-256 of the uncompressed canonical JSON (64 lowercase hex).
    public var contentSHA256: String
    /// SHA-256 of the compressed bytes, when the server sent one.
    public var blobSHA256: String?

    public init(resortID: String, manifestVersion: Int, snapshotDate: String,
                contentSHA256: String, blobSHA256: String? = nil) {
        self.resortID = resortID
        self.manifestVersion = manifestVersion
        self.snapshotDate = snapshotDate
        self.contentSHA256 = contentSHA256
        self.blobSHA256 = blobSHA256
    }
}

/// Size caps applied before and during inflation.
public struct IngressLimits: Sendable, Equatable {
    public var maxCompressedBytes: Int
    public var maxDecodedBytes: Int

    public init(maxCompressedBytes: Int = 16 << 20, maxDecodedBytes: Int = 128 << 20) {
        self.maxCompressedBytes = maxCompressedBytes
        self.maxDecodedBytes = maxDecodedBytes
    }
}
