/// The string form of a canonical dataset identity, `m<manifest>-<graph version>-<content sha256>`
/// (for example `m3-v15-9f…` with all 64 hex characters). Meet requests carry
/// it, and an exact replay resolves it.
///
/// Only canonical identities parse: the graph version is `v<digits>` and the
/// SHA exactly 64 lowercase hex characters, so a preview identity
/// (`mlegacy-…`) or a shortened SHA can never pass for a canonical one.
public struct DatasetVersion: Sendable, Hashable, CustomStringConvertible {
    public let manifestVersion: Int
    public let graphVersion: String
    public let contentSHA256: String

    public init(manifestVersion: Int, graphVersion: String, contentSHA256: String) {
        self.manifestVersion = manifestVersion
        self.graphVersion = graphVersion
        self.contentSHA256 = contentSHA256
    }

    /// Parses the string form; nil for anything that is not a canonical identity.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        // m <digits> - v <digits> - <64 hex>
        guard bytes.count > 1 + 1 + 1 + 2 + 1 + 64, bytes[0] == UInt8(ascii: "m") else { return nil }
        let sha = bytes.suffix(64)
        guard bytes[bytes.count - 65] == UInt8(ascii: "-"), sha.allSatisfy(Self.isLowerHex) else { return nil }
        let head = bytes[1..<(bytes.count - 65)]
        guard let dash = head.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let manifestDigits = head[head.startIndex..<dash]
        let graph = head[(dash + 1)...]
        guard !manifestDigits.isEmpty, manifestDigits.count <= 9, manifestDigits.allSatisfy(Self.isDigit),
              manifestDigits.first != UInt8(ascii: "0") || manifestDigits.count == 1,
              graph.count >= 2, graph.first == UInt8(ascii: "v"), graph.dropFirst().allSatisfy(Self.isDigit),
              let manifest = Int(String(decoding: manifestDigits, as: UTF8.self))
        else { return nil }
        self.init(manifestVersion: manifest, graphVersion: String(decoding: graph, as: UTF8.self),
                  contentSHA256: String(decoding: sha, as: UTF8.self))
    }

    public var description: String { "m\(manifestVersion)-\(graphVersion)-\(contentSHA256)" }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    private static func isLowerHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte >= 97 && byte <= 102) }
}

extension GraphBlob {
    /// This blob's identity, as a value.
    public var datasetIdentity: DatasetVersion {
        // `datasetVersion` is built from exactly these parts, so it always parses.
        DatasetVersion(datasetVersion)!
    }
}
