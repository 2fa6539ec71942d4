import Digest
import Foundation
import MountainGraph

/// An OSM extract read from a file and checked before anything is stored: it
/// parses as Overpass JSON or OSM XML, and it has a snapshot date.
struct OSMExtract: Sendable {
    enum Format: String, Sendable {
        case overpassJSON = "overpass_json"
        case osmXML = "osm_xml"
    }

    let sourceName: String
    let bytes: [UInt8]
    let format: Format
    let sha256: String
    let data: OSMData
    /// `YYYY-MM-DD`.
    let snapshotDate: String

    /// Reads and parses `file`. The snapshot date is `snapshotDate` when given,
    /// else the extract's own data timestamp (`osm3s.timestamp_osm_base` /
    /// `<meta osm_base>`), else a date in the file name. Never today's date:
    /// the date is part of the dataset identity and must be reproducible.
    init(file: URL, snapshotDate: String?) throws {
        let bytes = try ResortFiles.read(file, what: "OSM extract")
        try self.init(bytes: bytes, sourceName: file.lastPathComponent, snapshotDate: snapshotDate)
    }

    init(bytes: [UInt8], sourceName: String, snapshotDate: String?) throws {
        let format: Format = bytes.first { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<")
            ? .osmXML : .overpassJSON
        let data: OSMData
        do {
            data = try OSMData(osmBytes: bytes)
        } catch {
            throw CLIError("\(sourceName) is not a readable OSM extract (\(error))",
                           fix: "give Overpass JSON (`out body` or `out geom`) or OSM XML")
        }
        guard !data.ways.isEmpty else {
            throw CLIError("\(sourceName) holds no ways", fix: "give an extract with the resort's pistes and aerialways")
        }
        let date: String
        if let given = snapshotDate {
            guard let valid = Self.isoDate(given) else {
                throw CLIError("--snapshot-date \(given) is not a date", fix: "write it as YYYY-MM-DD")
            }
            date = valid
        } else if let found = Self.embeddedDate(bytes, format: format) ?? Self.dateInName(sourceName) {
            date = found
        } else {
            throw CLIError("\(sourceName) carries no data date (osm3s.timestamp_osm_base) and its name has none",
                           fix: "give --snapshot-date YYYY-MM-DD: the date of the OSM data, which becomes part of the dataset identity")
        }
        self.sourceName = sourceName
        self.bytes = bytes
        self.format = format
        self.sha256 = SHA256.hex(bytes)
        self.data = data
        self.snapshotDate = date
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
    static func embeddedDate(_ bytes: [UInt8], format: Format) -> String? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let marker = format == .overpassJSON ? "\"timestamp_osm_base\"" : "osm_base="
        guard let range = head.range(of: marker) else { return nil }
        let rest = head[range.upperBound...].drop { $0 == " " || $0 == ":" || $0 == "\"" || $0 == "'" }
        return isoDate(String(rest.prefix(10)))
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
    var extent: (latMin: Double, lonMin: Double, latMax: Double, lonMax: Double) {
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
enum ResortFiles {
    static func read(_ file: URL, what: String) throws -> [UInt8] {
        do {
            return Array(try Data(contentsOf: file))
        } catch {
            throw CLIError("cannot read the \(what) \(file.path)", fix: "check the path and that the file is readable")
        }
    }

    static func write(_ bytes: [UInt8], to file: URL, what: String) throws {
        do {
            try Data(bytes).write(to: file, options: .atomic)
        } catch {
            throw CLIError("cannot write the \(what) to \(file.path)", fix: "check that its folder exists and is writable")
        }
    }
}
