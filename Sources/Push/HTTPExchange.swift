/// One request for the HTTP/2 transport, and what came back.
struct HTTPRequest: Sendable {
    /// Absolute: the endpoint's origin and the path.
    var url: String
    /// Lower-case names. The transport adds the pseudo-headers and content-length.
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}

struct HTTPResponse: Sendable {
    var status: Int
    /// Lower-case names, in the order they came; the final response's only (not a 101's or 100's).
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}
