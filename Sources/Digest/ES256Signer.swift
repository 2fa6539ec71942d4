import CCrypto
import Foundation

/// ECDSA P-256 with SHA-256 (JWS "ES256") over a PKCS#8 PEM private key, such
/// as the .p8 file Apple hands out for APNs. Signatures come out as JWS wants
/// them: the raw 32-byte r and s, not OpenSSL's DER.
public final class ES256Signer: @unchecked Sendable {
    /// Why a key cannot be used or a signature made.
    public enum Failure: Error, Sendable, Equatable {
        case unreadable
        case notAPrivateKey
        case notP256
        case signing(String)
    }

    private let key: OpaquePointer

    public init(pem: String) throws(Failure) {
        let bytes = Array(pem.utf8)
        guard let bio = BIO_new_mem_buf(bytes, Int32(bytes.count)) else { throw .unreadable }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            ERR_clear_error()
            throw .notAPrivateKey
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw .notP256
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The 64-byte r‖s signature of `message`.
    public func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .signing("cannot create a signing context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .signing("libcrypto could not sign with the key")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw .signing("libcrypto could not sign with the key")
        }
        return try Self.rawSignature(fromDER: Array(der[0..<length]))
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s, each left-padded to 32 bytes.
    public static func rawSignature(fromDER der: [UInt8]) throws(Failure) -> [UInt8] {
        var cursor: UnsafePointer<UInt8>? = nil
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw .signing("OpenSSL produced an unreadable signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(r, buffer.baseAddress, 32), BN_bn2binpad(s, buffer.baseAddress! + 32, 32))
        }
        guard written.0 == 32, written.1 == 32 else { throw .signing("a signature value does not fit 32 bytes") }
        return raw
    }
}
