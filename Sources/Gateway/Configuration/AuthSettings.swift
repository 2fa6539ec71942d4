import Foundation
import Mail

/// How `/auth/v1` behaves beyond passwords: where its links lead, where its mail
/// goes, how long codes live, and what it allows — each with the hosted
/// platform's default.
public struct AuthSettings: Sendable {
    /// Where links lead when a request names no allowed `redirect_to` (GoTrue's SITE_URL).
    public var siteURL = "http://localhost:3000"
    /// This gateway's address as clients reach it, for the links in mail (GoTrue's API_EXTERNAL_URL);
    /// nil takes the request's Host (and X-Forwarded-Proto behind a local proxy).
    public var apiURL: String?
    /// Prefixes a `redirect_to` may start with besides the site URL (an app's deep link, say `powdermeet://`).
    public var redirectAllowList: [String] = []
    /// The mail server; nil writes each mail to the server's log instead, for the operator to hand on.
    public var smtp: SMTPSettings?
    /// Whether new accounts may be made (GoTrue's DISABLE_SIGNUP, inverted): sign-up, anonymous
    /// sign-in, email codes to unknown addresses and new Apple or Google accounts. Invitations still may.
    public var signUps = true
    /// Whether a password sign-up is confirmed at once (GoTrue's MAILER_AUTOCONFIRM), or waits
    /// for the code or link mailed to its address before it may sign in.
    public var autoconfirm = true
    /// Whether `POST /signup` with neither email nor password makes an anonymous user.
    public var anonymousSignIns = false
    /// Seconds a mailed code or link works.
    public var codeLifetime = 3600
    /// Seconds between two mails of one kind to one account.
    public var mailInterval = 60
    /// Whether a password change needs a code from `/reauthenticate` once the session is a day old.
    public var passwordReauthentication = false
    public var rateLimits = AuthRateLimits()
    /// Whether `/auth/v1` is an OAuth 2.1 authorization server for other applications
    /// (`/oauth/authorize`, `/oauth/token`, `/admin/oauth/clients`).
    public var oauthServer = false
    /// The site's consent page, which `/oauth/authorize` sends the user to with `authorization_id`.
    public var oauthConsentURL: String?
    /// Whether applications may register themselves at `/oauth/clients/register` (RFC 7591).
    public var oauthDynamicRegistration = false
    /// Sign in with Apple and Google (`grant_type=id_token`), by name; each is on when its client ids are set.
    public var identityProviders: [String: IdentityProvider] = [:]

    public init() {}

    /// Where the user consents: the configured page, else the site's `/oauth/consent`.
    var consentPage: String {
        oauthConsentURL ?? (siteURL.hasSuffix("/") ? String(siteURL.dropLast()) : siteURL) + "/oauth/consent"
    }

    public enum Key {
        public static let siteURL = "SUMMIT_SITE_URL"
        public static let apiURL = "SUMMIT_API_URL"
        public static let redirectAllowList = "SUMMIT_AUTH_REDIRECT_URLS"
        public static let smtpURL = "SUMMIT_SMTP_URL"
        public static let smtpUser = "SUMMIT_SMTP_USER"
        public static let smtpPassword = "SUMMIT_SMTP_PASSWORD"
        public static let smtpSender = "SUMMIT_SMTP_SENDER"
        public static let smtpCAFile = "SUMMIT_SMTP_CA_FILE"
        public static let anonymousSignIns = "SUMMIT_AUTH_ANONYMOUS_SIGN_INS"
        public static let signUps = "SUMMIT_AUTH_SIGN_UPS"
        public static let autoconfirm = "SUMMIT_AUTH_AUTOCONFIRM"
        public static let codeLifetime = "SUMMIT_AUTH_CODE_LIFETIME"
        public static let mailInterval = "SUMMIT_AUTH_MAIL_INTERVAL"
        public static let passwordReauthentication = "SUMMIT_AUTH_PASSWORD_REAUTHENTICATION"
        public static let rateLimits = "SUMMIT_AUTH_RATE_LIMITS"
        public static let oauthServer = "SUMMIT_AUTH_OAUTH_SERVER"
        public static let oauthConsentURL = "SUMMIT_AUTH_OAUTH_CONSENT_URL"
        public static let oauthDynamicRegistration = "SUMMIT_AUTH_OAUTH_DYNAMIC_REGISTRATION"
    }

    static func from(_ values: [String: String]) throws(GatewayConfiguration.Problem) -> AuthSettings {
        var settings = AuthSettings()
        if let text = values[Key.siteURL], !text.isEmpty {
            guard let url = URL(string: text), url.scheme != nil else {
                throw .init(description: "\(Key.siteURL) must be a URL such as https://app.example.com, not \"\(text)\"")
            }
            settings.siteURL = url.absoluteString
        }
        if let text = values[Key.apiURL], !text.isEmpty {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw .init(description: "\(Key.apiURL) must be this server's public URL such as https://api.example.com, not \"\(text)\"")
            }
            settings.apiURL = text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        if let text = values[Key.redirectAllowList] {
            settings.redirectAllowList = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            if let bad = settings.redirectAllowList.first(where: { !$0.contains(":") }) {
                throw .init(description: "\(Key.redirectAllowList) lists URL prefixes with a scheme (https://app.example.com/, powdermeet://); \"\(bad)\" has none")
            }
        }
        if let text = values[Key.smtpURL], !text.isEmpty {
            guard let url = URL(string: text), ["smtp", "smtps"].contains(url.scheme ?? ""), url.host != nil else {
                throw .init(description: "\(Key.smtpURL) must be smtp://host:port (STARTTLS) or smtps://host:port (TLS), not \"\(text)\"")
            }
            guard let sender = values[Key.smtpSender], MailMessage.isPlainAddress(sender) else {
                throw .init(description: "\(Key.smtpSender) must be the address mail comes from (noreply@example.com) when \(Key.smtpURL) is set")
            }
            settings.smtp = SMTPSettings(url: url, username: values[Key.smtpUser], password: values[Key.smtpPassword],
                                         sender: sender, caFile: values[Key.smtpCAFile])
        }
        settings.anonymousSignIns = try GatewayConfiguration.flag(values, Key.anonymousSignIns) ?? false
        settings.signUps = try GatewayConfiguration.flag(values, Key.signUps) ?? true
        settings.autoconfirm = try GatewayConfiguration.flag(values, Key.autoconfirm) ?? true
        settings.passwordReauthentication = try GatewayConfiguration.flag(values, Key.passwordReauthentication) ?? false
        if let seconds = try GatewayConfiguration.seconds(values, Key.codeLifetime, 60...86_400) { settings.codeLifetime = seconds }
        if let seconds = try GatewayConfiguration.seconds(values, Key.mailInterval, 0...3600) { settings.mailInterval = seconds }
        if let text = values[Key.rateLimits] { settings.rateLimits = try AuthRateLimits.parse(text, key: Key.rateLimits) }
        settings.identityProviders = try IdentityProvider.from(values)
        settings.oauthServer = try GatewayConfiguration.flag(values, Key.oauthServer) ?? false
        settings.oauthDynamicRegistration = try GatewayConfiguration.flag(values, Key.oauthDynamicRegistration) ?? false
        if let text = values[Key.oauthConsentURL], !text.isEmpty {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw .init(description: "\(Key.oauthConsentURL) must be the consent page's URL such as https://app.example.com/oauth/consent, not \"\(text)\"")
            }
            settings.oauthConsentURL = text
        }
        return settings
    }
}

/// Requests allowed per window, per client address and per account, as
/// `name=count/seconds` items of `SUMMIT_AUTH_RATE_LIMITS`.
public struct AuthRateLimits: Sendable, Equatable {
    public struct Limit: Sendable, Equatable {
        public var count: Int
        public var seconds: Int

        public init(count: Int, seconds: Int) {
            self.count = count
            self.seconds = seconds
        }
    }

    /// Sign-ins and sign-ups from one address (the platform: 30 per 5 minutes).
    public var signIn = Limit(count: 30, seconds: 300)
    /// Wrong passwords or codes for one account before it is held for the rest of the window.
    public var accountFailures = Limit(count: 20, seconds: 300)
    /// Token refreshes from one address (the platform: 150 per 5 minutes).
    public var refresh = Limit(count: 150, seconds: 300)
    /// Code verifications from one address (the platform: 30 per 5 minutes).
    public var verify = Limit(count: 30, seconds: 300)
    /// Requests that send mail (recover, OTP, resend, invitations) from one address (the platform: 30 an hour).
    public var mail = Limit(count: 30, seconds: 3600)

    public init() {}

    static let names = ["sign_in", "account_failures", "refresh", "verify", "mail"]

    static func parse(_ text: String, key: String) throws(GatewayConfiguration.Problem) -> AuthRateLimits {
        var limits = AuthRateLimits()
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1)
            let numbers = parts.count == 2 ? parts[1].split(separator: "/").compactMap { Int($0) } : []
            guard parts.count == 2, numbers.count == 2, numbers[0] >= 1, (1...86_400).contains(numbers[1]) else {
                throw .init(description: "\(key) takes items name=count/seconds (sign_in=30/300); \"\(item)\" is not one")
            }
            let limit = Limit(count: numbers[0], seconds: numbers[1])
            switch parts[0] {
            case "sign_in": limits.signIn = limit
            case "account_failures": limits.accountFailures = limit
            case "refresh": limits.refresh = limit
            case "verify": limits.verify = limit
            case "mail": limits.mail = limit
            default:
                throw .init(description: "\(key): \"\(parts[0])\" is not a limit; the limits are \(names.joined(separator: ", "))")
            }
        }
        return limits
    }
}
