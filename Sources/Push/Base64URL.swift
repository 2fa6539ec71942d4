import Foundation

extension Data {
    /// Base64url without padding (RFC 7515 §2), as JWTs use it.
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
