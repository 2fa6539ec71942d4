/// A `multipart/form-data` body (RFC 7578): the parts, each with its name,
/// filename, content type and bytes. Storage clients upload files this way.
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        var filename: String?
        var contentType: String?
        var body: [UInt8]
    }

    var parts: [Part]

    func part(named name: String) -> Part? { parts.first { $0.name == name } }

    /// The boundary of a `multipart/form-data; boundary=…` content type.
    static func boundary(in contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = String(piece.dropFirst("boundary=".count))
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    /// Nil when the body is not well-formed for `boundary`.
    init?(_ body: [UInt8], boundary: String) {
        let delimiter = Array(("--" + boundary).utf8)
        let separator = Array(("\r\n--" + boundary).utf8)
        guard body.count >= delimiter.count, Array(body[0..<delimiter.count]) == delimiter else { return nil }
        var position = delimiter.count
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" ends the form, CRLF starts a part.
            guard position + 2 <= body.count else { return nil }
            if body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") { break }
            guard body[position] == 13, body[position + 1] == 10 else { return nil }
            position += 2
            guard let headEnd = Self.find([13, 10, 13, 10], in: body, from: position, limit: 8192) else { return nil }
            let head = String(decoding: body[position..<headEnd], as: UTF8.self)
            position = headEnd + 4
            guard let end = Self.find(separator, in: body, from: position, limit: body.count) else { return nil }
            var part = Part(name: "", filename: nil, contentType: nil, body: Array(body[position..<end]))
            for line in head.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { return nil }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-type" { part.contentType = value }
                if name == "content-disposition" {
                    for parameter in value.split(separator: ";").dropFirst() {
                        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                        guard pair.count == 2 else { continue }
                        var text = pair[1]
                        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
                        if pair[0].lowercased() == "name" { part.name = text }
                        if pair[0].lowercased() == "filename" { part.filename = text }
                    }
                }
            }
            parts.append(part)
            position = end + separator.count
            guard parts.count <= 16 else { return nil }
        }
        self.parts = parts
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, limit: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let last = min(haystack.count - needle.count, start + limit)
        guard start <= last else { return nil }
        let first = needle[0]
        var index = start
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}

import Foundation
