import ZipArchive

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
            try xml.withUnsafeBufferPointer { (buffer) throws(ActivityImportError) in
                var scanner = XMLScanner(buffer)
                if case .start(let tag, let attributes, _)? = try? scanner.next(), scanner.equals(tag, "track") {
                    do {
                        name = try scanner.attribute("description", in: attributes).map { try scanner.name($0) }
                    } catch let failure as XMLScanner.Failure {
                        var refusal = failure.importError(file: fileName, scanner: scanner)
                        if case .line(let line)? = refusal.position { refusal.position = .entry("Track.xml", line: line) }
                        throw refusal
                    } catch {
                        throw ActivityImportError(file: fileName, .malformed(String(describing: error)))
                    }
                    device = scanner.attribute("platform", in: attributes).map { scanner.string($0) }
                }
            }
        }
        return ParsedActivity(format: .skiz, fileName: fileName, sourceFileHash: hash, sport: .downhill, device: device ?? "Ski Tracks",
                              name: name, segments: segments, labelledSections: sections.sorted { $0.start < $1.start },
                              droppedFixes: dropped)
    }
}
