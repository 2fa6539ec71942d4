import CCrypto
import Foundation

/// An asymmetric key of a JSON Web Signature: ECDSA P-256 ("ES256") or RSA with
/// PKCS #1 v1.5 ("RS256"), both over SHA-256. Private keys sign (the gateway's
/// access tokens, APNs provider tokens); public keys, from PEM or from a JWK of a
/// key set, verify (the gateway's own earlier keys, Apple's and Google's ID tokens).
public final class JWSKey: @unchecked Sendable {
    public enum Algorithm: String, Sendable, CaseIterable {
        case es256 = "ES256"
        case rs256 = "RS256"
    }

    /// Why a key cannot be read, made or used.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case unreadable(String)
        case unsupported(String)
        case notPrivate
        case signing(String)

        public var description: String {
            switch self {
            case .unreadable(let why): "the key cannot be read: \(why)"
            case .unsupported(let why): "the key is not usable: \(why)"
            case .notPrivate: "the key is a public key; signing needs the private key"
            case .signing(let why): "signing failed: \(why)"
            }
        }
    }

    /// RSA keys shorter than this are refused, as every JOSE profile does.
    public static let minimumRSABits = 2048

    private let key: OpaquePointer
    public let algorithm: Algorithm
    public let isPrivate: Bool
    /// The `kid` tokens name the key by: the JWK's own, else its RFC 7638 thumbprint.
    public let kid: String

    private init(key: OpaquePointer, isPrivate: Bool, keyID: String?) throws(Failure) {
        let algorithm: Algorithm
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_EC where EVP_PKEY_get_bits(key) == 256:
            algorithm = .es256
        case EVP_PKEY_EC:
            EVP_PKEY_free(key)
            throw .unsupported("an EC key must be on curve P-256 for ES256")
        case EVP_PKEY_RSA where EVP_PKEY_get_bits(key) >= Self.minimumRSABits:
            algorithm = .rs256
        case EVP_PKEY_RSA:
            EVP_PKEY_free(key)
            throw .unsupported("an RSA key must have at least \(Self.minimumRSABits) bits")
        default:
            EVP_PKEY_free(key)
            throw .unsupported("only P-256 EC (ES256) and RSA (RS256) keys are accepted")
        }
        self.key = key
        self.algorithm = algorithm
        self.isPrivate = isPrivate
        kid = keyID ?? Self.thumbprint(Self.publicMembers(of: key, algorithm))
    }

    deinit { EVP_PKEY_free(key) }

    // MARK: - Reading and making keys

    /// A PEM private key (PKCS #8, or SEC 1 / PKCS #1) or public key (SubjectPublicKeyInfo).
    public convenience init(pem: String, keyID: String? = nil) throws(Failure) {
        let bytes = Array(pem.utf8)
        func read(_ body: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
            guard let bio = BIO_new_mem_buf(bytes, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
        if let key = read({ PEM_read_bio_PrivateKey($0, nil, nil, nil) }) {
            try self.init(key: key, isPrivate: true, keyID: keyID)
        } else if let key = read({ PEM_read_bio_PUBKEY($0, nil, nil, nil) }) {
            ERR_clear_error()
            try self.init(key: key, isPrivate: false, keyID: keyID)
        } else {
            ERR_clear_error()
            throw .unreadable("it is not a PEM private key or public key")
        }
    }

    /// A key from a JWK: `kty` EC with `crv` P-256, `x` and `y`, or `kty` RSA with `n` and `e`;
    /// private when it has `d` (and, for RSA, `p`, `q`, `dp`, `dq`, `qi`), as GoTrue's
    /// `GOTRUE_JWT_KEYS` holds them. Its `kid`, if it has one, names it.
    public convenience init(jwk: [String: Any]) throws(Failure) {
        func number(_ name: String) throws(Failure) -> [UInt8] {
            guard let text = jwk[name] as? String, let bytes = Base64URL.decode(Substring(text)), !bytes.isEmpty else {
                throw .unreadable("the JWK's \(name) is missing or not base64url")
            }
            return bytes
        }
        let isPrivate = jwk["d"] != nil
        let key: OpaquePointer?
        let type: String
        switch jwk["kty"] as? String {
        case "EC":
            guard jwk["crv"] as? String == "P-256" else { throw .unsupported("an EC JWK must have crv P-256") }
            let x = try number("x"), y = try number("y")
            guard x.count == 32, y.count == 32 else { throw .unreadable("a P-256 JWK's x and y are 32 bytes each") }
            let point = [0x04] + x + y
            if isPrivate {
                let d = try number("d")
                key = summit_p256_private_key(point, point.count, d, d.count)
            } else {
                key = summit_p256_public_key(point, point.count)
            }
            type = "EC"
        case "RSA":
            let n = try number("n"), e = try number("e")
            if isPrivate {
                let parts = try [n, e] + ["d", "p", "q", "dp", "dq", "qi"].map { (name) throws(Failure) in try number(name) }
                key = Self.withPointers(parts) { pointers, lengths in summit_rsa_private_key(pointers, lengths) }
            } else {
                key = summit_rsa_public_key(n, n.count, e, e.count)
            }
            type = "RSA"
        case let other:
            throw .unsupported("a JWK of kty \(other ?? "missing") is not EC or RSA")
        }
        guard let key else {
            ERR_clear_error()
            throw .unreadable("the JWK's numbers are not a valid \(type) \(isPrivate ? "private" : "public") key")
        }
        try self.init(key: key, isPrivate: isPrivate, keyID: jwk["kid"] as? String)
    }

    /// Calls `body` with C pointers to each of `parts` and their lengths, valid for the call.
    private static func withPointers<T>(_ parts: [[UInt8]],
                                        _ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int>) -> T) -> T {
        let buffers = parts.map { part -> UnsafeMutablePointer<UInt8> in
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: part.count)
            buffer.initialize(from: part, count: part.count)
            return buffer
        }
        defer {
            for (buffer, part) in zip(buffers, parts) {
                buffer.update(repeating: 0, count: part.count)
                buffer.deallocate()
            }
        }
        let pointers: [UnsafePointer<UInt8>?] = buffers.map { UnsafePointer($0) }
        let lengths = parts.map(\.count)
        return pointers.withUnsafeBufferPointer { p in lengths.withUnsafeBufferPointer { l in body(p.baseAddress!, l.baseAddress!) } }
    }

    /// A new private key: P-256 for ES256, 2048-bit RSA for RS256.
    public static func generate(_ algorithm: Algorithm) throws(Failure) -> JWSKey {
        guard let context = EVP_PKEY_CTX_new_id(algorithm == .es256 ? EVP_PKEY_EC : EVP_PKEY_RSA, nil) else {
            throw .signing("libcrypto could not make a key context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              algorithm == .es256 ? EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1
                                  : EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(minimumRSABits)) == 1,
              EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw .signing("libcrypto could not generate a key")
        }
        return try JWSKey(key: key, isPrivate: true, keyID: nil)
    }

    /// The key as PEM: PKCS #8 for a private key, SubjectPublicKeyInfo for a public one.
    public var pem: String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        _ = isPrivate ? PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) : PEM_write_bio_PUBKEY(bio, key)
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let read = BIO_read(bio, &bytes, Int32(bytes.count))
        return String(decoding: bytes.prefix(Int(max(read, 0))), as: UTF8.self)
    }

    // MARK: - JWK

    /// The public JWK's members that name the key (RFC 7638's required members, in its order).
    private static func publicMembers(of key: OpaquePointer, _ algorithm: Algorithm) -> [(String, String)] {
        func number(_ name: String, width: Int32 = 0) -> String { Base64URL.encode(parameter(name, of: key, width: width)) }
        switch algorithm {
        case .es256: return [("crv", "P-256"), ("kty", "EC"), ("x", number("qx", width: 32)), ("y", number("qy", width: 32))]
        case .rs256: return [("e", number("e")), ("kty", "RSA"), ("n", number("n"))]
        }
    }

    /// The RFC 7638 thumbprint: SHA-256 of the required members' JSON, base64url.
    private static func thumbprint(_ members: [(String, String)]) -> String {
        let text = "{" + members.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(SHA256.hash(Array(text.utf8)))
    }

    /// The public key as a key set publishes it.
    public var publicJWK: [String: Any] {
        var jwk: [String: Any] = ["kid": kid, "alg": algorithm.rawValue, "use": "sig", "key_ops": ["verify"]]
        for (name, value) in Self.publicMembers(of: key, algorithm) { jwk[name] = value }
        return jwk
    }

    private static func parameter(_ name: String, of key: OpaquePointer, width: Int32 = 0) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return [] }
        defer { BN_free(number) }
        let size = width > 0 ? width : (BN_num_bits(number) + 7) / 8
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = BN_bn2binpad(number, &bytes, size)
        return bytes
    }

    // MARK: - Signing and verifying

    /// The JWS signature of `message`: r‖s (64 bytes) for ES256, PKCS #1 v1.5 for RS256.
    public func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        guard isPrivate else { throw .notPrivate }
        guard let context = EVP_MD_CTX_new() else { throw .signing("cannot create a signing context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .signing("libcrypto could not sign with the key")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .signing("libcrypto could not sign with the key")
        }
        let produced = Array(signature[0..<length])
        return algorithm == .es256 ? try Self.rawSignature(fromDER: produced) : produced
    }

    /// Whether `signature` (in JWS form) signs `message` under this key.
    public func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        let native: [UInt8]
        if algorithm == .es256 {
            guard signature.count == 64, let der = Self.derSignature(fromRaw: signature) else { return false }
            native = der
        } else {
            native = signature
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let verified = EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
            && EVP_DigestVerify(context, native, native.count, message, message.count) == 1
        ERR_clear_error()
        return verified
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

    /// r‖s → DER, for libcrypto to verify.
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, 32, nil) else { return nil }
        guard let s = raw.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress! + 32, 32, nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
