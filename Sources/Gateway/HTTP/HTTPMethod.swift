/// The request methods the gateway serves; anything else is answered 501.
public enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE", options = "OPTIONS"
}
