import Foundation

/// Where commands write: data to standard output, everything else to standard error.
public struct Console: Sendable {
    public init() {}

    public func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Progress and notes: standard error, so `--json` output stays clean.
    public func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Pretty, key-sorted JSON of any Encodable value, on standard output.
    public func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
