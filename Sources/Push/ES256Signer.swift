import CSSL
import Foundation

/// ECDSA P-256 with SHA-256 (JWS "ES256") over an APNs auth key: the .p8 file
/// Apple hands out, a PKCS#8 PEM private key. Signatures come out as JWS wants
/// them: the raw 32-byte r and s, not OpenSSL's DER.
final class ES256Signer: @unchecked Sendable {
    private let key: OpaquePointer

    init(pem: String) throws {
        let bytes = Array(pem.utf8)
        guard let bio = BIO_new_mem_buf(bytes, Int32(bytes.count)) else { throw APNsConfigurationError("cannot read the key") }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
            ERR_clear_error()
            throw APNsConfigurationError("the APNs key is not a PEM private key",
                fix: "use the AuthKey_KEYID.p8 file from App Store Connect as downloaded (it starts with -----BEGIN PRIVATE KEY-----)")
        }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256 else {
            EVP_PKEY_free(key)
            throw APNsConfigurationError("the APNs key is not an elliptic-curve P-256 key",
                fix: "APNs token authentication needs the .p8 key of an \"Apple Push Notifications service\" key")
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// The 64-byte r‖s signature of `message`.
    func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw APNsConfigurationError("cannot create a signing context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw APNsConfigurationError("cannot sign with the APNs key")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw APNsConfigurationError("cannot sign with the APNs key")
        }
        return try Self.rawSignature(fromDER: Array(der[0..<length]))
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s, each left-padded to 32 bytes.
    static func rawSignature(fromDER der: [UInt8]) throws -> [UInt8] {
        var cursor: UnsafePointer<UInt8>? = nil
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw APNsConfigurationError("OpenSSL produced an unreadable signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        let written = raw.withUnsafeMutableBufferPointer { buffer in
            (BN_bn2binpad(r, buffer.baseAddress, 32), BN_bn2binpad(s, buffer.baseAddress! + 32, 32))
        }
        guard written.0 == 32, written.1 == 32 else { throw APNsConfigurationError("a signature value does not fit 32 bytes") }
        return raw
    }
}
