/// Why a request got no HTTP/2 answer: libcurl's result sorted into what an
/// operator does about it, with curl's own words as the detail.
struct HTTPTransportError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case cannotResolve
        case cannotConnect
        case timedOut
        /// The certificate chain does not lead to a trusted root.
        case untrustedCertificate
        /// The certificate is valid but names other hosts.
        case wrongHost
        case cannotReadCAFile
        case tlsHandshake
        /// The server answered, but not in HTTP/2 (no ALPN h2, no h2c upgrade).
        case notHTTP2
        /// The connection or the stream broke before the whole answer came.
        case connectionLost
        /// The client was closed before the request could go.
        case closed
        case other
    }

    var kind: Kind
    /// scheme://host[:port] of the endpoint.
    var origin: String
    /// What curl said (its error buffer, else its name for the code).
    var detail: String
    /// The session ended with this stream unanswered, not a byte of a response received:
    /// how libcurl 7.88 reports a stream the server left unread under its GOAWAY when curl
    /// missed sending it again itself, as it does the others. Worth one more try at once.
    var unanswered = false

    var description: String {
        switch kind {
        case .cannotResolve: "cannot resolve the host of \(origin): \(detail)"
        case .cannotConnect: "cannot connect to \(origin): \(detail)"
        case .timedOut: "\(origin) did not answer in time: \(detail)"
        case .untrustedCertificate: "the TLS certificate of \(origin) is not trusted: \(detail)"
        case .wrongHost: "the TLS certificate of \(origin) is for another host: \(detail)"
        case .cannotReadCAFile: "cannot read the CA certificates: \(detail)"
        case .tlsHandshake: "the TLS handshake with \(origin) failed: \(detail)"
        case .notHTTP2: "\(origin) does not speak HTTP/2: \(detail)"
        case .connectionLost: "the connection to \(origin) was lost: \(detail)"
        case .closed: "the APNs client was closed: \(detail)"
        case .other: "the request to \(origin) failed: \(detail)"
        }
    }
}
