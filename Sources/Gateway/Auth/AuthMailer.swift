import CurlClient
import Foundation
import Mail

/// The auth service's mail: a code and a link for one purpose, sent through the
/// configured SMTP server, or, with none, written to the server's log for the
/// operator to hand on (said once at start).
struct AuthMailer: Sendable {
    let settings: AuthSettings

    /// What a SQL flow answered under "mail": one code to send.
    struct Code: Sendable {
        var purpose: String
        var email: String
        var code: String
        var tokenHash: String

        init?(_ object: Any?) {
            guard let mail = object as? [String: Any], let purpose = mail["purpose"] as? String,
                  let email = mail["email"] as? String, let code = mail["code"] as? String,
                  let hash = mail["token_hash"] as? String else { return nil }
            self.purpose = purpose
            self.email = email
            self.code = code
            tokenHash = hash
        }

        /// The `type` a link's `/verify` takes for this purpose.
        var verifyType: String {
            switch purpose {
            case "confirmation": "signup"
            default: purpose
            }
        }
    }

    /// The link that verifies `code` at this gateway and then leads to `redirect`.
    func link(for code: Code, apiURL: String, redirect: String) -> String {
        apiURL + "/auth/v1/verify?" + FormEncoding.encoded([("token", code.tokenHash), ("type", code.verifyType), ("redirect_to", redirect)])
    }

    /// The message for a code: its subject and text, by purpose.
    static func message(for code: Code, link: String) -> (subject: String, body: String) {
        switch code.purpose {
        case "confirmation":
            ("Confirm your email address", "Follow this link to confirm your address:\n\(link)\n\nOr enter this code: \(code.code)")
        case "invite":
            ("You have been invited", "You have been invited to create an account. Follow this link to accept:\n\(link)\n\nOr enter this code: \(code.code)")
        case "magiclink":
            ("Your sign-in link", "Follow this link to sign in:\n\(link)\n\nOr enter this code: \(code.code)")
        case "recovery":
            ("Reset your password", "Follow this link to reset your password:\n\(link)\n\nOr enter this code: \(code.code)\n\nIf you did not ask for this, ignore this mail.")
        case "email_change":
            ("Confirm your new email address", "Follow this link to confirm this as your new address:\n\(link)\n\nOr enter this code: \(code.code)")
        default:
            ("Your confirmation code", "Enter this code to confirm it is you.\n\nYour code: \(code.code)\n\nIf you did not ask for this, change your password.")
        }
    }

    /// Sends the code; a failure says what to check.
    func send(_ code: Code, apiURL: String, redirect: String) async throws(SMTPClient.Failure) {
        let link = link(for: code, apiURL: apiURL, redirect: redirect)
        let (subject, body) = Self.message(for: code, link: link)
        guard let smtp = settings.smtp else {
            let note = "summit serve: mail to \(code.email) (\(code.purpose)) not sent, no SMTP server is set "
                + "(\(AuthSettings.Key.smtpURL)): code \(code.code), link \(link)\n"
            FileHandle.standardError.write(Data(note.utf8))
            return
        }
        try await SMTPClient(smtp).send(MailMessage(from: smtp.sender, to: code.email, subject: subject, body: body))
    }
}
