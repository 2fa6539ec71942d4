import CCurl
import Foundation

/// Sends mail through an SMTP server with libcurl. Each message is one
/// connection on a thread of its own: mail is rare (a sign-up, a recovery), and
/// a slow server must not hold one of the few threads requests run on.
public struct SMTPClient: Sendable {
    public let settings: SMTPSettings

    public init(_ settings: SMTPSettings) {
        self.settings = settings
    }

    /// Why a message was not accepted, with what to check.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public func send(_ message: MailMessage) async throws(Failure) {
        guard MailMessage.isPlainAddress(message.to), MailMessage.isPlainAddress(message.from) else {
            throw Failure(description: "\(message.to) or \(message.from) is not one plain mail address")
        }
        let settings = self.settings
        let outcome: String? = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: Self.perform(message, settings)) }
            thread.name = "smtp"
            thread.start()
        }
        if let outcome { throw Failure(description: outcome) }
    }

    /// The message's bytes and how far libcurl has read them.
    private final class Upload {
        let bytes: [UInt8]
        var offset = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// One blocking exchange; nil when the server took the message, else what went wrong.
    private static func perform(_ message: MailMessage, _ settings: SMTPSettings) -> String? {
        guard let handle = curl_easy_init() else { return "curl_easy_init failed (out of memory?)" }
        defer { curl_easy_cleanup(handle) }
        let upload = Upload(message.wire())
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        let recipients: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "<\(message.to)>")
        defer { curl_slist_free_all(recipients) }

        var problems: [String] = []
        func set(_ option: CURLoption, _ text: String) {
            if summit_curl_easy_setopt_pointer(handle, option, text) != CURLE_OK { problems.append("option \(option.rawValue)") }
        }
        func set(_ option: CURLoption, _ value: Int) {
            if summit_curl_easy_setopt_long(handle, option, value) != CURLE_OK { problems.append("option \(option.rawValue)") }
        }
        set(CURLOPT_URL, settings.url.absoluteString)
        set(CURLOPT_MAIL_FROM, "<\(message.from)>")
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_MAIL_RCPT, recipients)
        set(CURLOPT_UPLOAD, 1)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_TIMEOUT_MS, Int(settings.timeout.components.seconds * 1000))
        set(CURLOPT_CONNECTTIMEOUT_MS, 10_000)
        set(CURLOPT_PROTOCOLS_STR, "smtp,smtps")
        if settings.url.scheme == "smtp" {
            set(CURLOPT_USE_SSL, Int(settings.isLoopback ? CURLUSESSL_TRY.rawValue : CURLUSESSL_ALL.rawValue))
        }
        if let username = settings.username { set(CURLOPT_USERNAME, username) }
        if let password = settings.password { set(CURLOPT_PASSWORD, password) }
        if let caFile = settings.caFile { set(CURLOPT_CAINFO, caFile) }
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = summit_curl_easy_setopt_read_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
            let upload = Unmanaged<Upload>.fromOpaque(context!).takeUnretainedValue()
            let n = min(size * count, upload.bytes.count - upload.offset)
            upload.bytes.withUnsafeBufferPointer { source in
                buffer!.withMemoryRebound(to: UInt8.self, capacity: n) { target in
                    target.update(from: source.baseAddress! + upload.offset, count: n)
                }
            }
            upload.offset += n
            return n
        }
        let retained = Unmanaged.passRetained(upload)
        defer { retained.release() }
        _ = summit_curl_easy_setopt_pointer(handle, CURLOPT_READDATA, retained.toOpaque())
        guard problems.isEmpty else { return "libcurl refused \(problems.joined(separator: ", ")); is libcurl built with SMTP?" }

        let code = curl_easy_perform(handle)
        guard code != CURLE_OK else { return nil }
        var reply = 0
        _ = summit_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &reply)
        let detail = String(cString: errorBuffer)
        let what = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let server = "\(settings.url.host ?? "?"):\(settings.url.port.map(String.init) ?? "default port")"
        return "the mail server \(server) did not take the message (\(what)\(reply > 0 ? ", reply \(reply)" : "")): "
            + "check SUMMIT_SMTP_URL, SUMMIT_SMTP_USER and SUMMIT_SMTP_PASSWORD"
    }
}
