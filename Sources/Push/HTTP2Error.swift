/// What can go wrong on an HTTP/2 connection, in words an operator can act on.
public enum HTTP2Error: Error, Sendable, CustomStringConvertible, Equatable {
    /// The peer broke the protocol (or we could not make sense of it).
    case protocolViolation(String)
    /// A header block could not be decoded.
    case compression(String)
    /// The connection ended (EOF, reset, timeout) — `detail` says how.
    case connectionLost(String)
    /// The server is closing the connection; requests above `lastStreamID` were not processed.
    case goAway(lastStreamID: UInt32, errorCode: UInt32, debug: String)
    /// The server refused or cancelled our stream.
    case streamReset(errorCode: UInt32)
    /// The server closed the connection or refused the stream before processing
    /// the request (GOAWAY below our stream, REFUSED_STREAM): safe to send again.
    case requestNotProcessed(String)

    public var description: String {
        switch self {
        case .protocolViolation(let detail): "HTTP/2 protocol error: \(detail)"
        case .compression(let detail): "HTTP/2 header compression error: \(detail)"
        case .connectionLost(let detail): "the connection was lost: \(detail)"
        case .goAway(let last, let code, let debug):
            "the server is closing the connection (GOAWAY, error \(HTTP2Frame.errorName(code)), last stream \(last)"
                + (debug.isEmpty ? ")" : ": \(debug))")
        case .streamReset(let code): "the server reset the request (RST_STREAM, error \(HTTP2Frame.errorName(code)))"
        case .requestNotProcessed(let detail): "the server did not process the request: \(detail)"
        }
    }
}
