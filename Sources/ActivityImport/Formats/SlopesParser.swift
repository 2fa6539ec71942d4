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
                            name = scanner.attribute("locationName", in: attributes).map { scanner.string($0) }
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
                                sections.append(LabelledSection(kind: kind, start: start, end: end,
                                                                label: scanner.attribute("trackIDs", in: attributes).map { scanner.string($0) }))
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

/// Ski Tracks `.skiz`: a zip with `Nodes.csv` (the fixes), `Segment.csv`
/// (labelled `ski_lift` / `ski_run` segments in Unix seconds) and `Track.xml`.
enum SkiTracksParser {
    static func parse(_ archive: ZipArchive, fileName: String, hash: String, now: Double) throws(ActivityImportError) -> ParsedActivity {
        let files = Dictionary(archive.entries.map { ($0.fileName, $0) }, uniquingKeysWith: { first, _ in first })
        guard let nodes = files["Nodes.csv"] else {
            throw ActivityImportError(file: fileName, .malformed("the Ski Tracks archive has no Nodes.csv"))
        }
        let csv = try ArchiveReading.extract(archive, nodes, fileName: fileName)
        var track = TrackAssembler(file: fileName, now: now) { line in .entry("Nodes.csv", line: line) }
        try FixCSV.read(csv, entry: "Nodes.csv", into: &track)
        let (segments, dropped) = try track.finish()

        var sections: [LabelledSection] = []
        if let segmentTable = files["Segment.csv"] {
            let text = String(decoding: try ArchiveReading.extract(archive, segmentTable, fileName: fileName), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) {
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                guard fields.count >= 8, let start = Double(fields[0]), let end = Double(fields[1]) else { continue }
                let kind: LabelledSection.Kind? = fields[7] == "ski_lift" ? .lift : fields[7] == "ski_run" ? .run : nil
                if let kind { sections.append(LabelledSection(kind: kind, start: start, end: end, label: String(fields[5]))) }
            }
        }
        var name: String?
        var device: String?
        if let trackFile = files["Track.xml"] {
            let xml = try ArchiveReading.extract(archive, trackFile, fileName: fileName)
            xml.withUnsafeBufferPointer { buffer in
                var scanner = XMLScanner(buffer)
                if case .start(let tag, let attributes, _)? = try? scanner.next(), scanner.equals(tag, "track") {
                    name = scanner.attribute("description", in: attributes).map { scanner.string($0) }
                    device = scanner.attribute("platform", in: attributes).map { scanner.string($0) }
                }
            }
        }
        return ParsedActivity(format: .skiz, fileName: fileName, sourceFileHash: hash, sport: .downhill, device: device ?? "Ski Tracks",
                              name: name, segments: segments, labelledSections: sections.sorted { $0.start < $1.start },
                              droppedFixes: dropped)
    }
}

/// Zip entry extraction with the reader's errors turned into import errors.
enum ArchiveReading {
    /// One entry inflated may be at most 64 MiB: a ski day's CSV is a few hundred kilobytes.
    static let entryLimit = 64 << 20

    static func extract(_ archive: ZipArchive, _ entry: ZipEntry, fileName: String) throws(ActivityImportError) -> [UInt8] {
        do {
            return try archive.extract(entry, limit: entryLimit)
        } catch {
            switch error {
            case .checksumMismatch, .sizeMismatch:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .checksumMismatch(error.description))
            case .truncated:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .truncated(error.description))
            default:
                throw ActivityImportError(file: fileName, position: .entry(entry.path, line: 0), .malformed(error.description))
            }
        }
    }
}
