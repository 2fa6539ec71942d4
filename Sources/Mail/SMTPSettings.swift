import Foundation

/// Where mail goes: an SMTP server by URL (smtp:// with STARTTLS required unless
/// the server is this machine, smtps:// with TLS from the start), its account,
/// and the sender address.
public struct SMTPSettings: Sendable, Equatable {
    public var url: URL
    public var username: String?
    public var password: String?
    public var sender: String
    /// A CA bundle to verify the server with, instead of the system's.
    public var caFile: String?
    public var timeout: Duration = .seconds(30)

    public init(url: URL, username: String? = nil, password: String? = nil, sender: String, caFile: String? = nil) {
        self.url = url
        self.username = username
        self.password = password
        self.sender = sender
        self.caFile = caFile
    }

    /// Loopback servers (a local relay, a test stand-in) may speak without TLS.
    var isLoopback: Bool {
        ["127.0.0.1", "::1", "localhost"].contains(url.host ?? "")
    }
}
