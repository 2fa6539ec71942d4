/// ECDSA P-256 with SHA-256 (JWS "ES256") over a PKCS#8 PEM private key, such
/// as the .p8 file Apple hands out for APNs: a `JWSKey` that must be an ES256
/// private key.
public final class ES256Signer: Sendable {
    /// Why a key cannot be used or a signature made.
    public enum Failure: Error, Sendable, Equatable {
        case notAPrivateKey
        case notP256
        case signing(String)
    }

    private let key: JWSKey

    public init(pem: String) throws(Failure) {
        do {
            key = try JWSKey(pem: pem)
        } catch .unsupported {
            throw .notP256
        } catch {
            throw .notAPrivateKey
        }
        guard key.isPrivate else { throw .notAPrivateKey }
        guard key.algorithm == .es256 else { throw .notP256 }
    }

    /// The 64-byte r‖s signature of `message`.
    public func sign(_ message: [UInt8]) throws(Failure) -> [UInt8] {
        do { return try key.sign(message) } catch { throw .signing(error.description) }
    }

    /// DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s, each left-padded to 32 bytes.
    public static func rawSignature(fromDER der: [UInt8]) throws(Failure) -> [UInt8] {
        do { return try JWSKey.rawSignature(fromDER: der) } catch { throw .signing(error.description) }
    }
}
