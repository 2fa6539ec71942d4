import ZipArchive

/// Why a graph blob was refused before it could be cached or routed on.
/// Any one of these rejects the whole blob.
public enum IngressError: Error, Equatable, CustomStringConvertible {
    case compressedTooLarge(size: Int, limit: Int)
    case malformedExpectedSHA(String)
    case blobSHAMismatch(expected: String, actual: String)
    case inflate(RawDeflateError)
    case contentSHAMismatch(expected: String, actual: String)
    case notJSON(JSONError)
    case schema(String)
    case identityMismatch(field: String, expected: String, actual: String)
    case fingerprintMismatch(advertised: String, computed: String)
    case invalidGraph([GraphProblem])
    case notCanonical

    public var description: String {
        switch self {
        case .compressedTooLarge(let size, let limit):
            return "compressed blob is \(size) bytes, above the \(limit)-byte limit"
        case .malformedExpectedSHA(let value):
            return "expected SHA-256 '\(value)' is not 64 lowercase hex characters"
        case .blobSHAMismatch(let expected, let actual):
            return "blob SHA-256 \(actual) does not match the expected \(expected): the transfer is corrupt"
        case .inflate(let error):
            return "blob does not inflate: \(error)"
        case .contentSHAMismatch(let expected, let actual):
            return "content SHA-256 \(actual) does not match the expected \(expected): this is not the requested dataset"
        case .notJSON(let error):
            return "graph document is not JSON: \(error)"
        case .schema(let message):
            return "graph document does not have the v15 shape: \(message)"
        case .identityMismatch(let field, let expected, let actual):
            return "\(field) is '\(actual)' but '\(expected)' was requested"
        case .fingerprintMismatch(let advertised, let computed):
            return "advertised fingerprint \(advertised) does not match the recomputed \(computed)"
        case .invalidGraph(let problems):
            let shown = problems.prefix(10).map(\.description).joined(separator: "; ")
            return "graph fails integrity (\(problems.count) problem\(problems.count == 1 ? "" : "s")): \(shown)"
        case .notCanonical:
            return "graph document is not in canonical form (key order, number form or extra content differ)"
        }
    }
}
