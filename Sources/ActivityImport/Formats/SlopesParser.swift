import ZipArchive

/// Slopes exports: a zip with `GPS.csv` (preferred; `RawGPS.csv` otherwise)
/// and `Metadata.xml`, whose `Action` elements label every lift ride and run
/// with local times like `2024-01-25 09:13:30 -0700`.
enum SlopesParser {
    static func parse(_ archive: ZipArchive, fileName: String, hash: String, now: Double) throws(ActivityImportError) -> ParsedActivity {
        let files = Dictionary(archive.entries.map { ($0.fileName, $0) }, uniquingKeysWith: { first, _ in first })
        guard let fixes = files["GPS.csv"] ?? files["RawGPS.csv"] else {
            throw ActivityImportError(file: fileName, .malformed("the Slopes archive has neither GPS.csv nor RawGPS.csv"))
        }
        let csv = try ArchiveReading.extract(archive, fixes, fileName: fileName)
        let entryName = fixes.fileName
        var track = TrackAssembler(file: fileName, now: now) { line in .entry(entryName, line: line) }
        try FixCSV.read(csv, entry: entryName, into: &track)
        let (segments, dropped) = try track.finish()

        var name: String?
        var device: String?
        var sections: [LabelledSection] = []
        if let metadata = files["Metadata.xml"] {
            let xml = try ArchiveReading.extract(archive, metadata, fileName: fileName)
            try xml.withUnsafeBufferPointer { (buffer) throws(ActivityImportError) in
                var scanner = XMLScanner(buffer)
                do {
                    while let event = try scanner.next() {
                        guard case .start(let tag, let attributes, _) = event else { continue }
                        if scanner.equals(tag, "Activity") {
                            name = try scanner.attribute("locationName", in: attributes).map { try scanner.name($0) }
                            device = scanner.attribute("source", in: attributes).map { "Slopes (source \(scanner.string($0)))" } ?? "Slopes"
                        } else if scanner.equals(tag, "Action") {
                            guard let type = scanner.attribute("type", in: attributes),
                                  let start = scanner.attribute("start", in: attributes).flatMap({ TimestampFormat.parse(buffer, $0) }),
                                  let end = scanner.attribute("end", in: attributes).flatMap({ TimestampFormat.parse(buffer, $0) }) else {
                                throw ActivityImportError(file: fileName, position: .entry("Metadata.xml", line: scanner.line(at: scanner.offset)),
                                                          .malformed("an Action lacks a type, start or end"))
                            }
                            let kind: LabelledSection.Kind? = scanner.equalsIgnoringCase(type, "run") ? .run
                                : scanner.equalsIgnoringCase(type, "lift") ? .lift : nil
                            if let kind {
                                let number = { (name: StaticString) in
                                    scanner.attribute(name, in: attributes).flatMap { DecimalParser.parse(buffer, $0) }
                                }
                                let figures = AppRunFigures(vertical: number("vertical"), topSpeed: number("topSpeed"),
                                                            averageSpeed: number("avgSpeed"), distance: number("distance"))
                                sections.append(LabelledSection(kind: kind, start: start, end: end,
                                                                label: scanner.attribute("trackIDs", in: attributes).map { scanner.string($0) },
                                                                appFigures: figures.isEmpty ? nil : figures))
                            }
                        }
                    }
                } catch let failure as XMLScanner.Failure {
                    var error = failure.importError(file: fileName, scanner: scanner)
                    if case .line(let line)? = error.position { error.position = .entry("Metadata.xml", line: line) }
                    throw error
                } catch let error as ActivityImportError {
                    throw error
                } catch {
                    throw ActivityImportError(file: fileName, .malformed(String(describing: error)))
                }
            }
        }
        return ParsedActivity(format: .slopes, fileName: fileName, sourceFileHash: hash, sport: .downhill, device: device,
                              name: name, segments: segments, labelledSections: sections.sorted { $0.start < $1.start },
                              droppedFixes: dropped)
    }
}
