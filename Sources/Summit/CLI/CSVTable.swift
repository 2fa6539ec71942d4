import Foundation

/// A CSV file with a header line (RFC 4180: commas, double-quoted fields with
/// `""` for a quote, CRLF or LF), read as rows of named cells.
struct CSVTable {
    let header: [String]
    /// Each data row with its line number in the file (blank lines skipped).
    let rows: [(line: Int, cells: [String: String])]

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(bytes: [UInt8], file: String) throws(Problem) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(description: "\(file) is not UTF-8 text: save it as UTF-8 CSV")
        }
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = [], field = "", quoted = false, afterQuote = false, line = 1, recordLine = 1
        var characters = text.unicodeScalars.makeIterator()
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
            field = ""
        }
        while let scalar = characters.next() {
            if quoted {
                if scalar == "\"" { quoted = false; afterQuote = true } else { field.unicodeScalars.append(scalar) }
                if scalar == "\n" { line += 1 }
                continue
            }
            switch scalar {
            case "\"":
                if afterQuote { field.append("\"") } else if !field.isEmpty {
                    throw Problem(description: "\(file) line \(line): a quote inside an unquoted field; quote the whole field and double the quote")
                }
                quoted = true
                afterQuote = false
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r":
                continue
            case "\n":
                endRecord()
                line += 1
                recordLine = line
                afterQuote = false
            default:
                if afterQuote { throw Problem(description: "\(file) line \(line): text after a closing quote") }
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw Problem(description: "\(file) line \(recordLine): a quoted field never ends") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        guard let first = records.first else { throw Problem(description: "\(file) is empty: it needs a header line") }
        header = first.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var rows: [(line: Int, cells: [String: String])] = []
        for record in records.dropFirst() {
            guard record.fields.count == header.count else {
                throw Problem(description: "\(file) line \(record.line): \(record.fields.count) fields where the header has \(header.count)")
            }
            var cells: [String: String] = [:]
            for (name, value) in zip(header, record.fields) {
                let trimmed = value.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { cells[name] = trimmed }
            }
            rows.append((record.line, cells))
        }
        self.rows = rows
    }
}
