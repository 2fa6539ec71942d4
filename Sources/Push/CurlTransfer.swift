import CCurl
import Foundation

/// One request as a libcurl easy handle: its options, the callbacks that gather
/// the answer, and the sorting of curl's result into an `HTTPResponse` or an
/// `HTTPTransportError`. Made on any thread; from `start` on, used only on the
/// multiplexer's thread.
final class CurlTransfer: @unchecked Sendable {
    /// Settings every transfer of one client shares.
    struct Options: Sendable {
        var timeout: Duration
        var caFile: String?
    }

    /// An APNs answer is a few hundred bytes of JSON; a peer sending more is not APNs.
    static let maximumBody = 64 * 1024

    let request: HTTPRequest
    /// scheme://host[:port]: the multiplexer's key for the one connection it shares.
    let origin: String
    private let options: Options
    private let completion: @Sendable (Result<HTTPResponse, HTTPTransportError>) -> Void
    private(set) var handle: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    private var headers: [(name: String, value: String)] = []
    private var body: [UInt8] = []
    private var bodyTooLarge = false

    init(_ request: HTTPRequest, origin: String, options: Options,
         completion: @escaping @Sendable (Result<HTTPResponse, HTTPTransportError>) -> Void) {
        self.request = request
        self.origin = origin
        self.options = options
        self.completion = completion
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    /// Makes the easy handle; nil (and the transfer finished with the reason) when curl refuses an option.
    func start() -> UnsafeMutableRawPointer? {
        guard let handle = curl_easy_init() else {
            finish(.failure(HTTPTransportError(kind: .other, origin: origin, detail: "curl_easy_init failed (out of memory?)")))
            return nil
        }
        self.handle = handle
        // Names and values come from our configuration and the outbox, never with line breaks;
        // "expect:" stops curl from waiting for 100-continue on the h2c upgrade request, "accept:" drops its default.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["expect:", "accept:"] {
            headerList = curl_slist_append(headerList, line)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let milliseconds = Int(options.timeout.components.seconds * 1000 + options.timeout.components.attoseconds / 1_000_000_000_000_000)
        var results = [
            summit_curl_easy_setopt_pointer(handle, CURLOPT_URL, request.url),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            // HTTP/2 on both schemes: ALPN h2 over TLS, the HTTP/1.1 Upgrade to h2c in the clear. Not prior
            // knowledge: Debian 12's libcurl 7.88 fails every stream after the first on such a connection.
            summit_curl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_0)),
            // Wait for the host's one connection to say whether it multiplexes instead of opening another.
            summit_curl_easy_setopt_long(handle, CURLOPT_PIPEWAIT, 1),
            // Signals are process-wide; curl must not use SIGALRM for timeouts on its own thread.
            summit_curl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            // No proxy from http_proxy/https_proxy: APNs is reached directly, and a loopback stand-in must never be proxied.
            summit_curl_easy_setopt_pointer(handle, CURLOPT_PROXY, ""),
            summit_curl_easy_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
            summit_curl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds),
            summit_curl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            summit_curl_easy_setopt_long(handle, CURLOPT_POST, 1),
            summit_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)),
            // Copied now, so the bytes need not outlive this call.
            request.body.isEmpty ? summit_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, "")
                : request.body.withUnsafeBytes { summit_curl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) },
            summit_curl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList),
            summit_curl_easy_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION, receiveBody),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me),
            summit_curl_easy_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION, receiveHeader),
            summit_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, me),
        ]
        if let caFile = options.caFile { results.append(summit_curl_easy_setopt_pointer(handle, CURLOPT_CAINFO, caFile)) }
        if let refused = results.first(where: { $0 != CURLE_OK }) {
            finish(.failure(HTTPTransportError(kind: .other, origin: origin,
                                               detail: "libcurl refused an option: " + String(cString: curl_easy_strerror(refused)))))
            return nil
        }
        return handle
    }

    /// curl is done with the transfer (the handle is already out of the multi handle).
    func complete(_ code: CURLcode) {
        guard let handle else { return }
        if code != CURLE_OK {
            finish(.failure(error(for: code)))
            return
        }
        var status = 0
        var version = 0
        _ = summit_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        _ = summit_curl_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        guard version == Int(CURL_HTTP_VERSION_2_0) else {
            finish(.failure(HTTPTransportError(kind: .notHTTP2, origin: origin,
                detail: "it answered HTTP \(status) in HTTP/1.x (over TLS it did not choose h2 through ALPN; in the clear it did not accept the h2c upgrade)")))
            return
        }
        finish(.success(HTTPResponse(status: status, headers: headers, body: body)))
    }

    /// Ends a transfer that never reached curl, or that curl would not take.
    func fail(_ error: HTTPTransportError) {
        finish(.failure(error))
    }

    private func finish(_ result: Result<HTTPResponse, HTTPTransportError>) {
        if let handle {
            curl_easy_cleanup(handle)
            self.handle = nil
        }
        completion(result)
    }

    private func error(for code: CURLcode) -> HTTPTransportError {
        var error = sorted(code)
        var headerBytes = 0
        if code == CURLE_HTTP2, let handle, summit_curl_easy_getinfo_long(handle, CURLINFO_HEADER_SIZE, &headerBytes) == CURLE_OK {
            error.unanswered = headerBytes == 0
        }
        return error
    }

    private func sorted(_ code: CURLcode) -> HTTPTransportError {
        let said = String(cString: errorBuffer)
        let detail = said.isEmpty ? String(cString: curl_easy_strerror(code)) : said
        let kind: HTTPTransportError.Kind
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST: kind = .cannotResolve
        case CURLE_COULDNT_CONNECT: kind = .cannotConnect
        case CURLE_OPERATION_TIMEDOUT: kind = .timedOut
        // curl says "no alternative certificate subject name matches target host name" for a certificate of another host.
        case CURLE_PEER_FAILED_VERIFICATION: kind = said.contains("host name") || said.contains("subject name") ? .wrongHost : .untrustedCertificate
        case CURLE_SSL_CACERT_BADFILE: kind = .cannotReadCAFile
        case CURLE_SSL_CONNECT_ERROR: kind = .tlsHandshake
        case CURLE_WRITE_ERROR where bodyTooLarge:
            return HTTPTransportError(kind: .other, origin: origin, detail: "the answer's body is over \(Self.maximumBody) bytes: not APNs")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            kind = .connectionLost
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY: kind = .notHTTP2
        default: kind = .other
        }
        return HTTPTransportError(kind: kind, origin: origin, detail: detail)
    }

    fileprivate func append(body chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= Self.maximumBody else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// One header line as curl hands it over, line break included. A status line starts
    /// a new response: the 101 of an h2c upgrade and any 100 come before the real one.
    fileprivate func append(headerLine line: String) {
        if line.hasPrefix("HTTP/") {
            headers = []
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

private let receiveBody: curl_write_callback = { pointer, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    // Answering less than `length` makes curl end the transfer with CURLE_WRITE_ERROR.
    return transfer.append(body: UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
}

private let receiveHeader: curl_write_callback = { pointer, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    let length = size * count
    if let pointer {
        transfer.append(headerLine: String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self))
    }
    return length
}
