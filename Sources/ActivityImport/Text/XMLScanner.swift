/// A small pull scanner for the XML that GPX, TCX and Slopes metadata use.
///
/// It yields start tags, end tags and text as byte ranges of the input, never
/// building strings or trees, which is what makes it fast. Namespace prefixes
/// are dropped from names (`gte:gps` → `gps`); comments, processing
/// instructions and DOCTYPE are skipped; CDATA is text. It checks that tags
/// nest, so a truncated file is noticed. It is not a validating parser.
struct XMLScanner {
    enum Event {
        /// Local name, the raw attribute bytes, and whether it closes itself (`<a/>`).
        case start(name: Range<Int>, attributes: Range<Int>, selfClosing: Bool)
        case end(name: Range<Int>)
        /// Raw text (entities not expanded); CDATA sections come as text without their markers.
        case text(Range<Int>)
    }

    struct Failure: Error {
        var offset: Int
        var message: String
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset: Int
    private var depth = 0
    private var sawRoot = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark.
        offset = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The next event, or nil at the end of a well-nested document.
    mutating func next() throws(Failure) -> Event? {
        while offset < bytes.count {
            if bytes[offset] != 0x3C { // text up to the next '<'
                let start = offset
                while offset < bytes.count, bytes[offset] != 0x3C { offset += 1 }
                if depth > 0 { return .text(start..<offset) }
                continue
            }
            let tagStart = offset
            guard offset + 1 < bytes.count else { throw Failure(offset: tagStart, message: "a tag is cut off") }
            switch bytes[offset + 1] {
            case 0x21: // <!
                if matches("<!--") {
                    guard let close = find("-->", from: offset + 4) else { throw Failure(offset: tagStart, message: "a comment is not closed") }
                    offset = close + 3
                    continue
                }
                if matches("<![CDATA[") {
                    let start = offset + 9
                    guard let close = find("]]>", from: start) else { throw Failure(offset: tagStart, message: "a CDATA section is not closed") }
                    offset = close + 3
                    return .text(start..<close)
                }
                // DOCTYPE and other declarations: skip to the matching '>'.
                var nesting = 0
                offset += 2
                while offset < bytes.count {
                    if bytes[offset] == 0x3C { nesting += 1 }
                    if bytes[offset] == 0x3E { if nesting == 0 { break }; nesting -= 1 }
                    offset += 1
                }
                guard offset < bytes.count else { throw Failure(offset: tagStart, message: "a declaration is not closed") }
                offset += 1
                continue
            case 0x3F: // <? … ?>
                guard let close = find("?>", from: offset + 2) else { throw Failure(offset: tagStart, message: "a processing instruction is not closed") }
                offset = close + 2
                continue
            case 0x2F: // </name>
                offset += 2
                let name = readName()
                while offset < bytes.count, bytes[offset] != 0x3E { offset += 1 }
                guard offset < bytes.count else { throw Failure(offset: tagStart, message: "an end tag is cut off") }
                offset += 1
                guard depth > 0 else { throw Failure(offset: tagStart, message: "an end tag closes nothing") }
                depth -= 1
                return .end(name: name)
            default:
                offset += 1
                let name = readName()
                guard !name.isEmpty else { throw Failure(offset: tagStart, message: "a '<' does not start a tag") }
                let attributesStart = offset
                var quote: UInt8 = 0
                while offset < bytes.count {
                    let byte = bytes[offset]
                    if quote != 0 {
                        if byte == quote { quote = 0 }
                    } else if byte == 0x22 || byte == 0x27 {
                        quote = byte
                    } else if byte == 0x3E {
                        break
                    }
                    offset += 1
                }
                guard offset < bytes.count else { throw Failure(offset: tagStart, message: "a start tag is cut off") }
                let selfClosing = offset > attributesStart && bytes[offset - 1] == 0x2F
                let attributesEnd = selfClosing ? offset - 1 : offset
                offset += 1
                if depth == 0 {
                    if sawRoot { throw Failure(offset: tagStart, message: "a second root element follows the first") }
                    sawRoot = true
                }
                if !selfClosing { depth += 1 }
                return .start(name: name, attributes: attributesStart..<attributesEnd, selfClosing: selfClosing)
            }
        }
        if depth > 0 { throw Failure(offset: bytes.count, message: "the document ends inside an element") }
        if !sawRoot { throw Failure(offset: bytes.count, message: "there is no XML element") }
        return nil
    }

    /// Skips the content of the element just started, through its end tag.
    mutating func skipElement() throws(Failure) {
        var level = 1
        while level > 0, let event = try next() {
            switch event {
            case .start(_, _, let selfClosing): if !selfClosing { level += 1 }
            case .end: level -= 1
            case .text: break
            }
        }
    }

    /// The text of the element just started, up to its end tag (nested elements are skipped).
    mutating func elementText() throws(Failure) -> Range<Int>? {
        var found: Range<Int>?
        var level = 1
        while level > 0, let event = try next() {
            switch event {
            case .start(_, _, let selfClosing): if !selfClosing { level += 1 }
            case .end: level -= 1
            case .text(let range): if level == 1, found == nil || isBlank(found!) { found = range }
            }
        }
        return found
    }

    /// The value of attribute `name` (local name; any prefix ignored), raw.
    func attribute(_ name: StaticString, in range: Range<Int>) -> Range<Int>? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            while i < end, DecimalParser.isSpace(bytes[i]) { i += 1 }
            let nameStart = i
            while i < end, bytes[i] != 0x3D, !DecimalParser.isSpace(bytes[i]) { i += 1 }
            let attributeName = localName(nameStart..<i)
            while i < end, bytes[i] != 0x3D { i += 1 }
            i += 1
            while i < end, DecimalParser.isSpace(bytes[i]) { i += 1 }
            guard i < end else { return nil }
            let quote = bytes[i]
            guard quote == 0x22 || quote == 0x27 else { return nil }
            i += 1
            let valueStart = i
            while i < end, bytes[i] != quote { i += 1 }
            let value = valueStart..<min(i, end)
            i += 1
            if equals(attributeName, name) { return value }
        }
        return nil
    }

    func equals(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let pointer = name.utf8Start
        for k in 0..<range.count where bytes[range.lowerBound + k] != pointer[k] { return false }
        return true
    }

    /// Case-insensitive ASCII comparison, for names whose case varies between apps.
    func equalsIgnoringCase(_ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        let pointer = name.utf8Start
        for k in 0..<range.count where bytes[range.lowerBound + k] | 0x20 != pointer[k] | 0x20 { return false }
        return true
    }

    /// The text with the five predefined entities and numeric references expanded.
    func string(_ range: Range<Int>) -> String {
        Self.expandEntities(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    static func expandEntities(_ raw: String) -> String {
        guard raw.contains("&") else { return raw }
        var result = ""
        var rest = Substring(raw)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semi]
            switch entity {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += rest[amp...semi]
                }
            }
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }

    /// A name or label the file gives (track name, resort name): its text as the
    /// file's declared encoding has it. Bytes that are not valid UTF-8 in a file
    /// that declares UTF-8 (or nothing, which means UTF-8) are refused rather than
    /// turned into U+FFFD; a file declaring ISO-8859-1 or windows-1252 is decoded so.
    func name(_ range: Range<Int>) throws(Failure) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[range])
        if let text = String(validating: raw, as: UTF8.self) { return Self.expandEntities(text) }
        let declared = declaredEncoding
        let encoding: String.Encoding? = switch declared {
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1": .isoLatin1
        case "windows-1252", "cp1252": .windowsCP1252
        default: nil
        }
        if let encoding, let text = String(bytes: raw, encoding: encoding) { return Self.expandEntities(text) }
        var bad = range.lowerBound
        while bad < range.upperBound, bytes[bad] < 0x80 { bad += 1 }
        throw Failure(offset: bad, message: "the text at byte \(bad) is not valid UTF-8 (byte 0x\(String(bytes[min(bad, bytes.count - 1)], radix: 16, uppercase: true))) "
                      + "though the file declares \(declared ?? "no encoding, which means UTF-8"); save the file as UTF-8 or declare its real encoding")
    }

    /// The `encoding` of the XML declaration, lowercased; nil when there is none.
    var declaredEncoding: String? {
        let start = bytes.count >= 3 && bytes[0] == 0xEF ? 3 : 0
        let head = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, start + 200)]), as: UTF8.self)
        guard head.hasPrefix("<?xml"), let close = head.range(of: "?>"),
              let key = head[..<close.lowerBound].range(of: "encoding=") else { return nil }
        let rest = head[key.upperBound..<close.lowerBound].dropFirst()
        return rest.prefix { $0 != "\"" && $0 != "'" }.lowercased()
    }

    func isBlank(_ range: Range<Int>) -> Bool {
        for k in range where !DecimalParser.isSpace(bytes[k]) { return false }
        return true
    }

    /// 1-based line of a byte offset, for error messages.
    func line(at position: Int) -> Int {
        var line = 1
        for k in 0..<min(position, bytes.count) where bytes[k] == 0x0A { line += 1 }
        return line
    }

    // MARK: - Private

    private mutating func readName() -> Range<Int> {
        let start = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x3E || byte == 0x2F || DecimalParser.isSpace(byte) { break }
            offset += 1
        }
        return localName(start..<offset)
    }

    private func localName(_ range: Range<Int>) -> Range<Int> {
        var k = range.upperBound - 1
        while k >= range.lowerBound {
            if bytes[k] == 0x3A { return (k + 1)..<range.upperBound }
            k -= 1
        }
        return range
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        for k in 0..<count where bytes[offset + k] != literal.utf8Start[k] { return false }
        return true
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        let first = literal.utf8Start[0]
        var k = start
        while k + count <= bytes.count {
            if bytes[k] == first {
                var all = true
                for j in 1..<count where bytes[k + j] != literal.utf8Start[j] { all = false; break }
                if all { return k }
            }
            k += 1
        }
        return nil
    }
}
