import CCrypto
import Foundation

/// SHA-1 through OpenSSL's libcrypto, for name-based UUIDs (version 5), which
/// RFC 9562 defines over SHA-1. Not for anything that needs collision resistance.
public enum SHA1 {
    /// The 20-byte digest of `bytes`.
    public static func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { out in
                _ = EVP_Digest(buffer.baseAddress, buffer.count, out.baseAddress, &length, EVP_sha1(), nil)
            }
        }
        return digest
    }
}
