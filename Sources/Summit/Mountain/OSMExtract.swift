import Digest
import Foundation
import MountainGraph

/// The OSM snapshot an operator gives, read and checked before anything is
/// stored: one or more files (OSM XML, Overpass JSON, overpass-turbo
/// GeoJSON), merged, optionally cut to a box, with a snapshot date.
///
/// What is stored (`bytes`): one unmodified Overpass JSON or OSM XML file
/// is stored as it is, byte for byte (a box that drops nothing leaves it
/// unmodified). Anything else — GeoJSON, several files, a cut — is stored as
/// one Overpass JSON document written from the merged elements
/// (`OSMData.overpassJSON`), which records each source file's name, format,
/// size and sha256 and the box: the same inputs always give the same bytes,
/// so the same sha256.
package struct OSMExtract: Sendable {
    /// How the snapshot is stored (`osm_snapshots.format`).
    enum Format: String, Sendable {
        case overpassJSON = "overpass_json"
        case osmXML = "osm_xml"
    }

    /// One file as given: name, format, size, sha256 and its own data timestamp.
    typealias Source = OverpassDocumentHeader.Source

    /// By name: the order the files were given in does not matter.
    let sources: [Source]
    let bbox: OSMBoundingBox?
    /// The stored snapshot's name: the file's, or the files' joined with " + ".
    let sourceName: String
    package let bytes: [UInt8]
    let format: Format
    package let sha256: String
    package let data: OSMData
    /// `YYYY-MM-DD`.
    package let snapshotDate: String
    /// What each file held and what merging and cutting did, for the operator.
    let summary: [String]

    package init(file: URL, snapshotDate: String?) throws {
        try self.init(files: [file], snapshotDate: snapshotDate, bbox: nil)
    }

    package init(files: [URL], snapshotDate: String?, bbox: OSMBoundingBox?) throws {
        let inputs = try files.map { (name: $0.lastPathComponent, bytes: try ResortFiles.read($0, what: "OSM extract")) }
        try self.init(inputs: inputs, snapshotDate: snapshotDate, bbox: bbox)
    }

    init(bytes: [UInt8], sourceName: String, snapshotDate: String?) throws {
        try self.init(inputs: [(sourceName, bytes)], snapshotDate: snapshotDate, bbox: nil)
    }

    /// One Overpass answer already read (`OverpassAnswer`), kept as it came and not read again.
    init(overpassAnswer bytes: [UInt8], data: OSMData, sourceName: String, snapshotDate: String) throws {
        try self.init(inputs: [(sourceName, bytes)], snapshotDate: snapshotDate, bbox: nil, read: [.elements(data)])
    }

    /// Reads and merges `inputs`. The snapshot date is `snapshotDate` when
    /// given, else the newest of the files' dates — each file's own data
    /// timestamp (`osm3s.timestamp_osm_base`, `<meta osm_base>`, GeoJSON
    /// `timestamp`), else a date in its name — and a file with neither
    /// needs `snapshotDate`. Never today's date: the date is part of the
    /// dataset identity and must be reproducible.
    /// `parsed`: the inputs already read, in order; the rest are read here.
    init(inputs: [(name: String, bytes: [UInt8])], snapshotDate: String?, bbox: OSMBoundingBox?, read parsed: [OSMInput] = []) throws {
        guard !inputs.isEmpty else { throw CLIError("no OSM extract given", fix: "give --osm FILE (repeat it for several files)") }
        var read: [(source: Source, date: String?, input: OSMInput, bytes: [UInt8])] = []
        for (index, (name, bytes)) in inputs.enumerated() {
            let format = OSMFormat.detect(bytes)
            let input: OSMInput
            do {
                input = index < parsed.count ? parsed[index] : try OSMInput(bytes: bytes)
            } catch {
                throw CLIError("\(name) is not a readable OSM extract (\(error))",
                               fix: "give Overpass JSON (`out body` or `out geom`), OSM XML, or overpass-turbo GeoJSON (features with \"way/<id>\" ids)")
            }
            var timestamp: String?
            if case .geoJSON(let document) = input { timestamp = document.timestamp } else { timestamp = Self.embeddedTimestamp(bytes, format: format) }
            let date = timestamp.flatMap { Self.isoDate(String($0.prefix(10))) } ?? Self.dateInName(name)
            let source = Source(name: name, format: format, sha256: SHA256.hex(bytes), byteCount: bytes.count, timestamp: timestamp)
            if let same = read.first(where: { $0.source.sha256 == source.sha256 }) {
                throw CLIError("\(name) and \(same.source.name) are the same file (sha256 \(source.sha256.prefix(12))…)", fix: "give each --osm file once")
            }
            read.append((source, date, input, bytes))
        }
        read.sort { ($0.source.name, $0.source.sha256) < ($1.source.name, $1.source.sha256) }
        let names = read.map(\.source.name).joined(separator: " + ")

        var merged: OSMData
        if read.count == 1, case .elements(let data) = read[0].input {
            merged = data
        } else {
            do {
                merged = try OSMData(merging: read.map { ($0.source.name, $0.input) })
            } catch {
                throw CLIError("\(names) do\(read.count == 1 ? "es" : "") not make one consistent snapshot (\(error))",
                               fix: "give files from one export of one area; each element must agree wherever it appears")
            }
        }
        var summary = read.map { Self.describe($0.source, $0.input) }
        if read.count > 1 || read.contains(where: { $0.source.format == .geoJSON }) {
            let derived = merged.nodes.keys.filter { $0 >= OSMGeoJSON.derivedNodeIDBase }.count
            summary.append("\(read.count > 1 ? "merged" : "joined"): \(merged.ways.count) ways, \(merged.nodes.count) nodes, of which \(derived) take ids derived from their coordinates")
        }
        var cut = false
        if let bbox {
            let inside = merged.cut(to: bbox)
            guard !inside.ways.isEmpty else {
                throw CLIError("no way of \(names) has a vertex inside --bbox \(bbox.text)",
                               fix: "give the box as S,W,N,E (south and west edges first) around the resort's pistes and lifts")
            }
            cut = inside.ways.count != merged.ways.count || inside.nodes.count != merged.nodes.count
            summary.append("cut to \(bbox.text): \(inside.ways.count) of \(merged.ways.count) ways (each whole), \(inside.nodes.count) of \(merged.nodes.count) nodes")
            merged = inside
        }
        guard !merged.ways.isEmpty else {
            throw CLIError("\(names) hold\(read.count == 1 ? "s" : "") no ways", fix: "give an extract with the resort's pistes and aerialways")
        }

        let date: String
        if let given = snapshotDate {
            guard let valid = Self.isoDate(given) else {
                throw CLIError("--snapshot-date \(given) is not a date", fix: "write it as YYYY-MM-DD")
            }
            date = valid
        } else {
            let undated = read.filter { $0.date == nil }.map(\.source.name)
            guard undated.isEmpty, let newest = read.compactMap(\.date).max() else {
                throw CLIError("\(undated.joined(separator: ", ")) carr\(undated.count == 1 ? "ies" : "y") no data date (osm3s.timestamp_osm_base, GeoJSON timestamp) and no date in the name",
                               fix: "give --snapshot-date YYYY-MM-DD: the date of the OSM data, which becomes part of the dataset identity")
            }
            date = newest
        }

        self.sources = read.map(\.source)
        self.bbox = bbox
        self.snapshotDate = date
        if read.count == 1, read[0].source.format != .geoJSON, !cut {
            self.sourceName = read[0].source.name
            self.bytes = read[0].bytes
            self.format = read[0].source.format == .osmXML ? .osmXML : .overpassJSON
            self.data = merged
        } else {
            self.sourceName = names + (cut ? " cut to \(bbox!.text)" : "")
            self.bytes = merged.overpassJSON(OverpassDocumentHeader(
                generator: "Summit: one snapshot from the OSM files listed in sources",
                timestampOSMBase: "\(date)T00:00:00Z",
                note: Self.note(count: read.count, cut: cut ? bbox : nil),
                sources: sources,
                bbox: cut ? bbox : nil))
            self.format = .overpassJSON
            // Drafts and builds read what is stored, so draft from it too.
            self.data = try OSMData(overpassJSON: bytes)
            summary.append("stored as one Overpass JSON document of \(bytes.count) bytes made from \(read.count == 1 ? "it" : "them")")
        }
        self.sha256 = SHA256.hex(bytes)
        self.summary = summary
    }

    private static func note(count: Int, cut: OSMBoundingBox?) -> String {
        var text = "Made from \(count) OSM file\(count == 1 ? "" : "s") (see sources). Ways and tags are as the files give them; "
            + "GeoJSON vertices were joined on identical coordinates, and vertices no node feature names have the node id "
            + "2e18 + (round(lat*1e7) + 900000000) * 3600000001 + (round(lon*1e7) + 1800000000). Relations are left out."
        if let cut {
            text += " Cut to S,W,N,E \(cut.text): every way with a vertex inside, whole, and every node inside."
        }
        return text
    }

    private static func describe(_ source: Source, _ input: OSMInput) -> String {
        switch input {
        case .elements(let data):
            return "\(source.name): \(source.format == .osmXML ? "OSM XML" : "Overpass JSON"), \(data.ways.count) ways, \(data.nodes.count) nodes"
        case .geoJSON(let document):
            let polygons = document.ways.filter(\.fromPolygon).count
            return "\(source.name): GeoJSON, \(document.ways.count) ways (\(polygons) from polygons), \(document.nodes.count) node features"
                + (document.skippedRelations > 0 ? ", \(document.skippedRelations) relation features skipped (relations are not part of the graph)" : "")
        }
    }

    /// A valid calendar date in `YYYY-MM-DD` form, or nil.
    static func isoDate(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1] ? text : nil
    }

    /// The data timestamp near the top of the file: Overpass writes
    /// `"timestamp_osm_base": "2025-01-19T21:21:36Z"` (JSON) or
    /// `<meta osm_base="…"/>` (XML) before the elements.
    static func embeddedTimestamp(_ bytes: [UInt8], format: OSMFormat) -> String? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let marker = format == .osmXML ? "osm_base=" : "\"timestamp_osm_base\""
        guard let range = head.range(of: marker) else { return nil }
        let rest = head[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\"" || $0 == "'" }
        let value = rest.prefix { $0 != "\"" && $0 != "'" }
        return isoDate(String(value.prefix(10))) == nil ? nil : String(value)
    }

    /// The first `YYYY-MM-DD` in a file name (`andorra-2025-01-19.ski.osm.json`).
    static func dateInName(_ name: String) -> String? {
        let characters = Array(name)
        guard characters.count >= 10 else { return nil }
        for start in 0...(characters.count - 10) {
            if let date = isoDate(String(characters[start..<(start + 10)])) { return date }
        }
        return nil
    }

    /// Bounding box and centre of every vertex the ways use.
    package var extent: (latMin: Double, lonMin: Double, latMax: Double, lonMax: Double) {
        var latMin = 90.0, lonMin = 180.0, latMax = -90.0, lonMax = -180.0
        for way in data.ways {
            for id in way.nodeIDs {
                guard let node = data.node(id) else { continue }
                latMin = min(latMin, node.lat); latMax = max(latMax, node.lat)
                lonMin = min(lonMin, node.lon); lonMax = max(lonMax, node.lon)
            }
        }
        return (latMin, lonMin, latMax, lonMax)
    }
}

/// Reading the operator's input files, with errors that say which file.
package enum ResortFiles {
    static func read(_ file: URL, what: String) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: file))
        } catch {
            throw CLIError("cannot read the \(what) \(file.path)", fix: "check the path and that the file is readable")
        }
    }

    package static func write(_ bytes: [UInt8], to file: URL, what: String) throws {
        do {
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw CLIError("cannot write the \(what) to \(file.path)", fix: "check that its folder exists and is writable")
        }
    }
}
