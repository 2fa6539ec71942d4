/// A request to send on an HTTP/2 connection, and what came back.
struct HTTP2Request {
    var method: String
    var path: String
    /// Lower-case names, without the pseudo-headers (the connection adds those).
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}

struct HTTP2Response {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}
