import CCurl
import Foundation

/// One HTTP/1.1 exchange over libcurl, on a thread of its own: the key sets the
/// gateway fetches and the Overpass answers `summit resort fetch` asks for.
/// Rare, slow requests, so each gets its own connection and thread rather than
/// one of the few threads requests run on.
public enum CurlClient {
    public struct Request: Sendable {
        public var url: URL
        /// Sent as a POST with this content type when set, else a GET.
        public var body: (contentType: String, bytes: [UInt8])?
        public var headers: [(name: String, value: String)]
        /// The whole exchange, connection included.
        public var timeout: Duration
        public var connectTimeout: Duration
        /// A longer body ends the transfer with `.tooLarge`.
        public var maximumBody: Int

        public init(url: URL, body: (contentType: String, bytes: [UInt8])? = nil, headers: [(name: String, value: String)] = [],
                    timeout: Duration, connectTimeout: Duration, maximumBody: Int) {
            self.url = url
            self.body = body
            self.headers = headers
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maximumBody = maximumBody
        }
    }

    public struct Response: Sendable {
        public var status: Int
        /// Lower-case names, in the order they came; the final response's only (not a 100's).
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? { headers.first { $0.name == name.lowercased() }?.value }
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            case cannotResolve
            case cannotConnect
            case timedOut
            case tooLarge
            /// The connection broke before the whole answer came.
            case connectionLost
            case other
        }

        public var kind: Kind
        /// What curl said (its error buffer, else its name for the code).
        public var detail: String
        /// Body bytes received before the failure.
        public var bytesReceived: Int

        public var description: String { detail }
    }

    /// Runs `request` on a new thread and waits for it without blocking the caller's executor.
    public static func send(_ request: Request, threadName: String) async -> Result<Response, Failure> {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: perform(request)) }
            thread.name = threadName
            thread.start()
        }
    }

    /// The answer's status line, headers and body so far.
    private final class Transfer {
        let maximumBody: Int
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var tooLarge = false

        init(maximumBody: Int) { self.maximumBody = maximumBody }
    }

    /// One blocking exchange: any status is a response; only transport trouble is a failure.
    public static func perform(_ request: Request) -> Result<Response, Failure> {
        guard let handle = curl_easy_init() else {
            return .failure(Failure(kind: .other, detail: "curl_easy_init failed (out of memory?)", bytesReceived: 0))
        }
        defer { curl_easy_cleanup(handle) }
        let transfer = Transfer(maximumBody: request.maximumBody)
        let retained = Unmanaged.passRetained(transfer)
        defer { retained.release() }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        // "expect:" stops curl from waiting for a 100-continue before a large POST body.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + (request.body.map { ["content-type: \($0.contentType)", "expect:"] } ?? []) {
            headerList = curl_slist_append(headerList, line)
        }
        defer { curl_slist_free_all(headerList) }

        let context = retained.toOpaque()
        var results = [
            summit_curl_easy_setopt_pointer(handle, CURLOPT_URL, request.url.absoluteString),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "https,http"),
            // Signals are process-wide; curl must not use SIGALRM for timeouts on its own thread.
            summit_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            // Any encoding libcurl can decode (gzip, deflate): less to carry, and Overpass offers gzip.
            summit_curl_easy_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, ""),
            summit_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(request.timeout)),
            summit_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout)),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
            summit_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, receiveBody),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context),
            summit_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, receiveHeader),
        ]
        // A loopback server is never reached through the environment's proxy.
        if ["127.0.0.1", "localhost", "::1", "[::1]"].contains(request.url.host ?? "") {
            results.append(summit_curl_easy_setopt_pointer(handle, CURLOPT_PROXY, ""))
        }
        if let body = request.body {
            results.append(summit_curl_easy_setopt_long(handle, CURLOPT_POST, 1))
            results.append(summit_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.bytes.count)))
            // Copied now, so the bytes need not outlive this call.
            results.append(body.bytes.isEmpty ? summit_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, "")
                : body.bytes.withUnsafeBytes { summit_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        }
        if let refused = results.first(where: { $0 != CURLE_OK }) {
            return .failure(Failure(kind: .other, detail: "libcurl refused an option: " + String(cString: curl_easy_strerror(refused)),
                                    bytesReceived: 0))
        }

        let code = curl_easy_perform(handle)
        guard code == CURLE_OK else {
            let said = String(cString: errorBuffer)
            let detail = said.isEmpty ? String(cString: curl_easy_strerror(code)) : said
            let kind: Failure.Kind
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST: kind = .cannotResolve
            case CURLE_COULDNT_CONNECT: kind = .cannotConnect
            case CURLE_OPERATION_TIMEDOUT: kind = .timedOut
            case CURLE_WRITE_ERROR where transfer.tooLarge: kind = .tooLarge
            case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: kind = .connectionLost
            default: kind = .other
            }
            return .failure(Failure(kind: kind, detail: detail, bytesReceived: transfer.body.count))
        }
        var status = 0
        _ = summit_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(Response(status: status, headers: transfer.headers, body: transfer.body))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000))
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
        Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Answering less than `length` makes curl end the transfer with CURLE_WRITE_ERROR.
    private static let receiveBody: curl_write_callback = { pointer, size, count, context in
        let transfer = CurlClient.transfer(context)
        let length = size * count
        guard transfer.body.count + length <= transfer.maximumBody else {
            transfer.tooLarge = true
            return 0
        }
        transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: length))
        return length
    }

    /// One header line, line break included. A status line starts a new response (after a 100).
    private static let receiveHeader: curl_write_callback = { pointer, size, count, context in
        let transfer = CurlClient.transfer(context)
        let length = size * count
        guard let pointer else { return length }
        let line = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return length
    }
}
