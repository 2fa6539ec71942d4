/// What the relay refuses, in words a user can act on.
public struct RelayError: Error, Sendable, CustomStringConvertible, Equatable {
    public var message: String
    public var fix: String

    public init(_ message: String, fix: String) {
        self.message = message
        self.fix = fix
    }

    public var description: String { "\(message) (\(fix))" }

    static func invalidResort(_ resort: String) -> RelayError {
        RelayError("\"\(resort)\" is not a resort id",
                   fix: "use 1 to 52 characters of A-Z, a-z, 0-9, _ . -, starting with a letter or digit")
    }

    static let closed = RelayError("the relay is closed", fix: "start a new relay")
    static let subscriptionClosed = RelayError("this subscription is closed", fix: "subscribe again")
}
