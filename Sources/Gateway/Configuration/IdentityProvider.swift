import Foundation

/// A provider whose ID tokens `grant_type=id_token` takes (Sign in with Apple,
/// Google): who issues them, for which apps, and where its signing keys are.
public struct IdentityProvider: Sendable, Equatable {
    /// `apple` or `google`, as clients name it.
    public var name: String
    /// `iss` values its tokens carry.
    public var issuers: [String]
    /// The apps' client ids; a token's `aud` must be one (an iOS bundle id, a services id, a Google client id).
    public var clientIDs: [String]
    /// Its JSON Web Key Set: an https URL, or a file (`file://` or a path) for a fixed or test key set.
    public var keySetURL: URL

    public init(name: String, issuers: [String], clientIDs: [String], keySetURL: URL) {
        self.name = name
        self.issuers = issuers
        self.clientIDs = clientIDs
        self.keySetURL = keySetURL
    }

    /// The providers Summit knows, with their public issuers and key sets.
    static let known: [(name: String, issuers: [String], keySet: String)] = [
        ("apple", ["https://appleid.apple.com"], "https://appleid.apple.com/auth/keys"),
        ("google", ["https://accounts.google.com", "accounts.google.com"], "https://www.googleapis.com/oauth2/v3/certs"),
    ]

    public enum Key {
        public static func clientIDs(_ provider: String) -> String { "SUMMIT_AUTH_\(provider.uppercased())_CLIENT_IDS" }
        public static func keySet(_ provider: String) -> String { "SUMMIT_AUTH_\(provider.uppercased())_KEYS_URL" }
    }

    /// The providers `values` turns on: each whose client ids are set.
    static func from(_ values: [String: String]) throws(GatewayConfiguration.Problem) -> [String: IdentityProvider] {
        var providers: [String: IdentityProvider] = [:]
        for known in known {
            let ids = (values[Key.clientIDs(known.name)] ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !ids.isEmpty else {
                if values[Key.keySet(known.name)] != nil {
                    throw .init(description: "\(Key.keySet(known.name)) is set but \(Key.clientIDs(known.name)) is not: list the app ids its tokens are for")
                }
                continue
            }
            let text = values[Key.keySet(known.name)].flatMap { $0.isEmpty ? nil : $0 } ?? known.keySet
            let url: URL
            if text.hasPrefix("/") {
                url = URL(fileURLWithPath: text)
            } else if let parsed = URL(string: text), ["https", "file"].contains(parsed.scheme ?? "") || parsed.isLoopbackHTTP {
                url = parsed
            } else {
                throw .init(description: "\(Key.keySet(known.name)) must be an https URL or a file path, not \"\(text)\"")
            }
            providers[known.name] = IdentityProvider(name: known.name, issuers: known.issuers, clientIDs: ids, keySetURL: url)
        }
        return providers
    }
}

private extension URL {
    /// Plain HTTP is taken for a key set on this machine only (a local stand-in).
    var isLoopbackHTTP: Bool { scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host ?? "") }
}
