import CCurl
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
        let outcome: Result<[UInt8], Failure> = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: get(url)) }
            thread.name = "jwks"
            thread.start()
        }
        return try parse(try outcome.get(), from: url)
    }

    private final class Download {
        var bytes: [UInt8] = []
        var tooLarge = false
    }

    static let largestKeySet = 1 << 20

    /// One blocking GET: the body of a 200 answer.
    private static func get(_ url: URL) -> Result<[UInt8], Failure> {
        guard let handle = curl_easy_init() else { return .failure(Failure(description: "curl_easy_init failed")) }
        defer { curl_easy_cleanup(handle) }
        let download = Download()
        let retained = Unmanaged.passRetained(download)
        defer { retained.release() }
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_URL, url.absoluteString)
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "https,http")
        _ = summit_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = summit_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, 10_000)
        _ = summit_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, 5_000)
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, retained.toOpaque())
        _ = summit_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
            let download = Unmanaged<Download>.fromOpaque(context!).takeUnretainedValue()
            let n = size * count
            guard download.bytes.count + n <= ProviderKeySets.largestKeySet else {
                download.tooLarge = true
                return 0
            }
            buffer!.withMemoryRebound(to: UInt8.self, capacity: n) { download.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n)) }
            return n
        }
        let code = curl_easy_perform(handle)
        var status = 0
        _ = summit_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        if download.tooLarge {
            return .failure(Failure(description: "the key set \(url.absoluteString) is larger than \(largestKeySet) bytes"))
        }
        guard code == CURLE_OK else {
            return .failure(Failure(description: "cannot fetch the key set \(url.absoluteString): \(String(cString: curl_easy_strerror(code)))"))
        }
        guard status == 200 else {
            return .failure(Failure(description: "the key set \(url.absoluteString) answered \(status)"))
        }
        return .success(download.bytes)
    }
}
