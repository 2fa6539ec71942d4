import Digest
import Foundation

/// The opening handshake (RFC 6455 §4.2): checks a client's upgrade request and
/// makes the 101 answer.
public enum WebSocketHandshake {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Why `request` is not a usable upgrade, or nil when it is.
    public static func problem(with request: HTTPRequest) -> HTTPResponse? {
        guard request.method == .get else {
            return .text(405, "a WebSocket upgrade must be a GET")
        }
        guard request.minorVersion == 1 else { return .text(400, "a WebSocket upgrade needs HTTP/1.1") }
        guard request.headers.tokens("upgrade").contains("websocket"),
              request.headers.tokens("connection").contains("upgrade") else {
            var response = HTTPResponse.text(426, "this endpoint speaks WebSocket: send Upgrade: websocket and Connection: Upgrade")
            response.headers.set("upgrade", "websocket")
            return response
        }
        guard request.headers.values("sec-websocket-version") == ["13"] else {
            var response = HTTPResponse.text(426, "only WebSocket version 13 is supported")
            response.headers.set("sec-websocket-version", "13")
            return response
        }
        let keys = request.headers.values("sec-websocket-key")
        guard keys.count == 1, let key = keys.first,
              let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            return .text(400, "Sec-WebSocket-Key must be 16 random bytes in base64")
        }
        guard request.body.isEmpty else { return .text(400, "a WebSocket upgrade carries no body") }
        return nil
    }

    /// `Sec-WebSocket-Accept` for a client's key.
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The 101 answer to a valid upgrade request.
    public static func response(to request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(status: 101, headers: [
            "upgrade": "websocket",
            "connection": "Upgrade",
            "sec-websocket-accept": acceptValue(for: request.headers["sec-websocket-key"] ?? ""),
        ])
    }
}
