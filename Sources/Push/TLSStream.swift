import CSSL

/// TLS over a TCP connection through OpenSSL's libssl: the server's certificate
/// is verified against the system's trust store (or `caFile`) and its host name,
/// and the server must choose HTTP/2 through ALPN, as APNs does.
final class TLSStream: ByteStream {
    private let tcp: TCPStream
    private let context: OpaquePointer
    private let connection: OpaquePointer
    private var closed = false

    init(tcp: TCPStream, host: String, caFile: String?) throws {
        self.tcp = tcp
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw Self.failure("cannot create a TLS context") }
        // The context is set up first: SSL_new copies its verification and ALPN settings.
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        let trusted = caFile.map { SSL_CTX_load_verify_locations(context, $0, nil) == 1 } ?? (SSL_CTX_set_default_verify_paths(context) == 1)
        // ALPN: a length-prefixed list holding only "h2".
        let protocols: [UInt8] = [2] + Array("h2".utf8)
        let offered = SSL_CTX_set_alpn_protos(context, protocols, UInt32(protocols.count)) == 0
        guard trusted, offered, let connection = SSL_new(context) else {
            let error = Self.failure(!trusted ? "cannot read the CA certificates in \(caFile ?? "the system's trust store")"
                                     : !offered ? "cannot offer HTTP/2 through ALPN" : "cannot create a TLS connection")
            SSL_CTX_free(context)
            throw error
        }
        self.context = context
        self.connection = connection
        // Server name indication (the SSL_set_tlsext_host_name macro) and host name checking.
        _ = host.withCString { SSL_ctrl(connection, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: $0)) }
        SSL_set1_host(connection, host)
        SSL_set_fd(connection, tcp.descriptor)
        guard SSL_connect(connection) == 1 else {
            let verification = SSL_get_verify_result(connection)
            if verification != X509_V_OK {
                throw HTTP2Error.connectionLost("the TLS certificate of \(host) is not trusted: "
                    + String(cString: X509_verify_cert_error_string(verification)))
            }
            throw Self.failure("the TLS handshake with \(host) failed")
        }
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(connection, &selected, &length)
        guard let selected, length == 2, selected[0] == UInt8(ascii: "h"), selected[1] == UInt8(ascii: "2") else {
            throw HTTP2Error.connectionLost("\(host) did not agree to HTTP/2 through ALPN (APNs always does: check the endpoint)")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { SSL_write(connection, $0.baseAddress, Int32($0.count)) }
            guard written > 0 else { throw Self.failure("writing over TLS failed") }
            offset += Int(written)
        }
    }

    func read(into buffer: inout [UInt8], maximum: Int) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: maximum)
        let count = chunk.withUnsafeMutableBytes { SSL_read(connection, $0.baseAddress, Int32(maximum)) }
        if count > 0 {
            buffer += chunk[0..<Int(count)]
            return Int(count)
        }
        let reason = SSL_get_error(connection, count)
        if reason == SSL_ERROR_ZERO_RETURN { return 0 }
        if reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_SYSCALL && count == -1 {
            throw HTTP2Error.connectionLost("no answer within the I/O timeout, or the connection broke")
        }
        if reason == SSL_ERROR_SYSCALL { return 0 }
        throw Self.failure("reading over TLS failed")
    }

    func hasPendingInput() -> Bool {
        SSL_pending(connection) > 0 || tcp.hasPendingInput()
    }

    func close() {
        guard !closed else { return }
        closed = true
        SSL_shutdown(connection)
        SSL_free(connection)
        SSL_CTX_free(context)
        tcp.close()
    }

    deinit { close() }

    /// `what`, with the reason OpenSSL queued.
    static func failure(_ what: String) -> HTTP2Error {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return .connectionLost(what) }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return .connectionLost(what + ": " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
