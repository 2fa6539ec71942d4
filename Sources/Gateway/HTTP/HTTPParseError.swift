/// Why a request could not be read, with the status the client gets for it.
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var message: String

    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    public var description: String { "\(status): \(message)" }

    static func bad(_ message: String) -> HTTPParseError { HTTPParseError(400, message) }
}
