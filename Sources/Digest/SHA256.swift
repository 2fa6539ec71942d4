import CCrypto
import Foundation

/// SHA-256 through OpenSSL's libcrypto.
///
/// Migration checksums, graph content hashes and token hashes all need the same
/// digest; one small type keeps every caller on the same, audited implementation.
public struct SHA256: ~Copyable {
    private let context: OpaquePointer

    public init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    public mutating func update(_ bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            _ = EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
    }

    public consuming func finalize() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        digest.withUnsafeMutableBufferPointer { out in
            _ = EVP_DigestFinal_ex(context, out.baseAddress, &length)
        }
        return digest
    }

    /// The digest of `bytes`, in one call.
    public static func hash(_ bytes: some ContiguousBytes) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The lowercase hexadecimal digest of `bytes`: 64 characters.
    public static func hex(_ bytes: some ContiguousBytes) -> String {
        hash(bytes).hexString
    }

    /// The lowercase hexadecimal digest of a string's UTF-8 bytes.
    public static func hex(_ string: String) -> String {
        hex(Array(string.utf8))
    }
}

extension Sequence where Element == UInt8 {
    /// Lowercase hexadecimal, two digits per byte.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
