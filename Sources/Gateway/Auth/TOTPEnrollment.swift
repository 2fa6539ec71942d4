import CQRencode
import CurlClient
import Foundation

/// What an authenticator app takes to enroll a TOTP factor: the `otpauth://` URI
/// (Google Authenticator's key URI format) and its QR code, drawn as SVG by
/// libqrencode. The platform answers the SVG itself: its clients make the data URI.
enum TOTPEnrollment {
    /// `otpauth://totp/ISSUER:ACCOUNT?secret=…&issuer=…`, each part percent-encoded.
    static func uri(secret: String, issuer: String, account: String) -> String {
        let label = FormEncoding.percentEncoded(issuer) + ":" + FormEncoding.percentEncoded(account)
        return "otpauth://totp/\(label)?secret=\(secret)&issuer=\(FormEncoding.percentEncoded(issuer))"
    }

    /// The QR code of `text` as SVG (error correction M, four modules of quiet zone); nil if it does not fit.
    static func qrCode(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 4
        var path = ""
        for y in 0..<width {
            for x in 0..<width where code.pointee.data[y * width + x] & 1 == 1 {
                path += "M\(x + quiet) \(y + quiet)h1v1h-1z"
            }
        }
        let size = width + 2 * quiet
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(size) \#(size)" shape-rendering="crispEdges">"#
            + ##"<rect width="\##(size)" height="\##(size)" fill="#ffffff"/><path fill="#000000" d="\##(path)"/></svg>"##
        return svg
    }
}
