import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a feed document comes from: an http(s) URL in production, a file in
/// tests and on machines without internet. Both give the same bytes to the
/// same parser, so a file exercises exactly what a URL would.
enum FeedSource: Sendable, Equatable, CustomStringConvertible {
    case file(String)
    case http(URL)

    /// Feeds larger than this are refused rather than parsed (a vendor page is
    /// a few hundred kilobytes; an hourly forecast a few tens).
    static let maximumBytes = 16 << 20
    static let timeout: TimeInterval = 30

    /// `https://…` or `http://…` is a URL; anything else is a file path.
    init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw CLIError("the feed location is empty", fix: "give an http(s) URL or the path of a file")
        }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: trimmed), url.host != nil else {
                throw CLIError("\(trimmed) is not a valid URL", fix: "write it like https://example.com/feed.json")
            }
            self = .http(url)
        } else if let scheme = lowered.range(of: "://"), lowered[..<scheme.lowerBound].allSatisfy({ $0.isLetter }) {
            throw CLIError("\(trimmed): only http:// and https:// URLs can be read", fix: "give an http(s) URL or the path of a file")
        } else {
            self = .file(trimmed)
        }
    }

    var description: String {
        switch self {
        case let .file(path): path
        case let .http(url): url.absoluteString
        }
    }

    /// The document's bytes. A failure says what could not be read and why.
    func fetch() async throws -> [UInt8] {
        switch self {
        case let .file(path):
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw FeedError("cannot read the feed file \(path)", fix: "check the path and its permissions")
            }
            defer { try? handle.close() }
            let data = try handle.read(upToCount: Self.maximumBytes + 1) ?? Data()
            guard data.count <= Self.maximumBytes else {
                throw FeedError("the feed file \(path) is larger than \(Self.maximumBytes >> 20) MiB", fix: "point at the feed document itself")
            }
            return Array(data)
        case let .http(url):
            var request = URLRequest(url: url, timeoutInterval: Self.timeout)
            request.setValue("application/json, text/html;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
            request.setValue("summit-feeds", forHTTPHeaderField: "User-Agent")
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForResource = Self.timeout * 2
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            let (data, response): (Data, URLResponse)
            do {
                (data, response) = try await session.data(for: request)
            } catch {
                throw FeedError("fetching \(url.absoluteString) failed: \(error.localizedDescription)",
                                fix: "check the URL and that this machine can reach it")
            }
            if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
                throw FeedError("\(url.absoluteString) answered HTTP \(http.statusCode)", fix: "check the URL; try again later if the vendor is down")
            }
            guard data.count <= Self.maximumBytes else {
                throw FeedError("\(url.absoluteString) sent more than \(Self.maximumBytes >> 20) MiB", fix: "point at the feed document itself")
            }
            return Array(data)
        }
    }
}

/// A feed could not be fetched or read. Nothing was written because of it.
struct FeedError: Error, Sendable, CustomStringConvertible {
    var problem: String
    var fix: String

    init(_ problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    var description: String { "\(problem): \(fix)" }
    var cliError: CLIError { CLIError(problem, fix: fix) }
}
