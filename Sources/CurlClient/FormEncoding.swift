import Foundation

/// `name=value&…` as HTML forms and query strings write it: every value
/// percent-encoded but RFC 3986's unreserved characters, so a URL inside (a
/// redirect, a token) or a whole Overpass query stays one value.
public enum FormEncoding {
    public static func encoded(_ pairs: [(String, String)]) -> String {
        pairs.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// RFC 3986's unreserved characters: ASCII letters and digits and `-._~` (Foundation's
    /// `alphanumerics` would also let letters of every other script through unencoded).
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
