import Foundation
import Mail
import SummitDatabase
import SummitTestSupport
import Testing

/// The mail client against a real SMTP server (aiosmtpd from PyPI, Tests/Compatibility/smtp_standin.py).
@Suite struct SMTPClientTests {
    @Test("a message reaches the server as sent: UTF-8 subject, a line starting with a dot, CRLF lines")
    func sends() async throws {
        let python = try await CompatibilityEnvironment.python()
        try await withTemporaryFolder { folder in
            let mailbox = folder.appendingPathComponent("mailbox.jsonl")
            let server = try ChildProcess(python, [CompatibilityEnvironment.root.appendingPathComponent("Tests/Compatibility/smtp_standin.py").path,
                                                   mailbox.path], in: folder)
            let port = try await server.line(startingWith: "listening ")
            let client = SMTPClient(SMTPSettings(url: URL(string: "smtp://127.0.0.1:\(port)")!, sender: "auth@summit.test"))
            try await client.send(MailMessage(from: "auth@summit.test", to: "ann@example.test", subject: "Réinitialiser",
                                              body: "first line\n.a dotted line\ncode: 123456"))
            _ = await server.stop()
            let lines = try String(contentsOf: mailbox, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1)
            let mail = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: String])
            #expect(mail["to"] == "ann@example.test" && mail["from"] == "auth@summit.test")
            #expect(mail["subject"] == "Réinitialiser")
            #expect(mail["body"] == "first line\r\n.a dotted line\r\ncode: 123456\r\n", "\(mail)")
        }
    }

    @Test("a server that is not there is named with the settings to check; a header-splitting address is refused")
    func failures() async throws {
        let port = try CompatibilityEnvironment.freePort()
        let client = SMTPClient(SMTPSettings(url: URL(string: "smtp://127.0.0.1:\(port)")!, sender: "auth@summit.test"))
        do {
            try await client.send(MailMessage(from: "auth@summit.test", to: "ann@example.test", subject: "s", body: "b"))
            Issue.record("a send to a closed port succeeded")
        } catch {
            #expect(error.description.contains("127.0.0.1:\(port)") && error.description.contains("SUMMIT_SMTP_URL"), "\(error)")
        }
        do {
            try await client.send(MailMessage(from: "auth@summit.test", to: "ann@example.test\r\nBcc: all@example.test", subject: "s", body: "b"))
            Issue.record("an address with a line break was sent")
        } catch {
            #expect(error.description.contains("not one plain mail address"), "\(error)")
        }
    }
}
