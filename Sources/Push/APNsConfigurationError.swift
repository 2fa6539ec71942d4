import Digest

/// The APNs configuration (or key) is unusable: what is wrong and what to do.
public struct APNsConfigurationError: Error, Sendable, CustomStringConvertible {
    public var problem: String
    public var fix: String?

    public init(_ problem: String, fix: String? = nil) {
        self.problem = problem
        self.fix = fix
    }

    public var description: String { problem + (fix.map { " — \($0)" } ?? "") }
}

extension APNsConfigurationError {
    /// An auth key or signature failure in the words of APNs token authentication.
    init(_ failure: ES256Signer.Failure) {
        switch failure {
        case .notAPrivateKey:
            self.init("the APNs key is not a PEM private key",
                      fix: "use the AuthKey_KEYID.p8 file from App Store Connect as downloaded (it starts with -----BEGIN PRIVATE KEY-----)")
        case .notP256:
            self.init("the APNs key is not an elliptic-curve P-256 key",
                      fix: "APNs token authentication needs the .p8 key of an \"Apple Push Notifications service\" key")
        case .signing(let why):
            self.init("cannot sign the APNs provider token: \(why)")
        }
    }
}
