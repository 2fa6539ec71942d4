import Foundation

/// One plain-text mail to one address.
public struct MailMessage: Sendable, Equatable {
    public var from: String
    public var to: String
    public var subject: String
    public var body: String

    public init(from: String, to: String, subject: String, body: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
    }

    /// The message as SMTP carries it (RFC 5322): CRLF lines, the subject
    /// encoded as UTF-8 (RFC 2047) when it is not ASCII. libcurl doubles a line's
    /// leading dot itself (RFC 5321 §4.5.2), so the text goes as written.
    public func wire(date: Date = Date(), messageID: String = UUID().uuidString) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let subjectField = subject.allSatisfy(\.isASCII) ? subject
            : "=?UTF-8?B?\(Data(subject.utf8).base64EncodedString())?="
        var lines = [
            "Date: \(formatter.string(from: date))",
            "From: \(from)",
            "To: \(to)",
            "Subject: \(subjectField)",
            "Message-ID: <\(messageID)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
        ]
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            lines.append(text)
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// Whether `address` is one plain address, with nothing a header or an SMTP command could be split on.
    public static func isPlainAddress(_ address: String) -> Bool {
        address.utf8.count <= 254 && address.contains("@")
            && !address.contains(where: { $0.isWhitespace || "<>\r\n,;\"".contains($0) })
    }
}
