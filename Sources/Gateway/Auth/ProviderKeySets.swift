import CurlClient
import Digest
import Foundation

/// The signing keys of Apple and Google, fetched from their key sets and kept:
/// fetched again after an hour, or sooner when a token names a key not seen yet
/// (the provider rotated), at most once a minute so a stream of made-up key ids
/// cannot turn the gateway into a fetcher.
actor ProviderKeySets {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private struct Entry {
        var keys: [JWSKey]
        var fetchedAt: Date
    }

    private var entries: [String: Entry] = [:]
    private let clock: @Sendable () -> Date
    static let lifetime: TimeInterval = 3600
    static let refetchInterval: TimeInterval = 60

    init(clock: @escaping @Sendable () -> Date) {
        self.clock = clock
    }

    /// The provider's keys, fresh enough to hold `kid` if the provider has it.
    func keys(for provider: IdentityProvider, kid: String?) async throws(Failure) -> [JWSKey] {
        let now = clock()
        if let entry = entries[provider.name] {
            let fresh = now.timeIntervalSince(entry.fetchedAt) < Self.lifetime
            let known = kid.map { kid in entry.keys.contains { $0.kid == kid } } ?? true
            if fresh && (known || now.timeIntervalSince(entry.fetchedAt) < Self.refetchInterval) { return entry.keys }
        }
        let keys = try await Self.fetch(provider.keySetURL)
        entries[provider.name] = Entry(keys: keys, fetchedAt: now)
        return keys
    }

    /// A JWK set's signing keys (EC P-256 and RSA); keys of other kinds or uses are passed over.
    static func parse(_ bytes: [UInt8], from url: URL) throws(Failure) -> [JWSKey] {
        guard let set = JSONText.parse(bytes) as? [String: Any], let members = set["keys"] as? [[String: Any]] else {
            throw Failure(description: "\(url.absoluteString) is not a JSON Web Key Set ({\"keys\": [...]})")
        }
        let keys = members.filter { ($0["use"] as? String ?? "sig") == "sig" }.compactMap { try? JWSKey(jwk: $0) }
        guard !keys.isEmpty else { throw Failure(description: "\(url.absoluteString) holds no EC P-256 or RSA signing key") }
        return keys
    }

    private static func fetch(_ url: URL) async throws(Failure) -> [JWSKey] {
        if url.isFileURL {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw Failure(description: "cannot read the key set \(url.path)")
            }
            return try parse(Array(data), from: url)
        }
        let request = CurlClient.Request(url: url, timeout: .seconds(10), connectTimeout: .seconds(5), maximumBody: largestKeySet)
        let response: CurlClient.Response
        switch await CurlClient.send(request, threadName: "jwks") {
        case .success(let answer):
            response = answer
        case .failure(let failure) where failure.kind == .tooLarge:
            throw Failure(description: "the key set \(url.absoluteString) is larger than \(largestKeySet) bytes")
        case .failure(let failure):
            throw Failure(description: "cannot fetch the key set \(url.absoluteString): \(failure.detail)")
        }
        guard response.status == 200 else {
            throw Failure(description: "the key set \(url.absoluteString) answered \(response.status)")
        }
        return try parse(response.body, from: url)
    }

    static let largestKeySet = 1 << 20
}
