import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension OSMData {
    /// Reads OSM XML (`<osm>` with `<node>`, `<way>`/`<nd>`, `<tag>`), as
    /// written by the OSM API, Overpass `out body` or `out geom` (`<nd>` with
    /// `lat`/`lon`). Relations are skipped.
    public init(osmXML bytes: [UInt8]) throws(OSMError) {
        let reader = OSMXMLReader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            let detail = parser.parserError.map { "\($0.localizedDescription)" } ?? "unknown error"
            throw .xml("not well-formed at line \(parser.lineNumber): \(detail)")
        }
        guard reader.sawRoot else { throw .xml("no <osm> root element") }
        // Some XMLParser builds accept a document cut off mid-element.
        guard reader.closedRoot else { throw .xml("the document ends before </osm>: the file is truncated") }
        self = try reader.collector.finish()
    }
}

/// The XMLParser delegate: a small state machine over node/way/tag/nd.
private final class OSMXMLReader: NSObject, XMLParserDelegate {
    var collector = OSMCollector()
    var failure: OSMError?
    var sawRoot = false
    var closedRoot = false

    private enum Open {
        case node(id: Int64, lat: Double?, lon: Double?)
        case way(id: Int64)
    }
    private var open: Open?
    private var tags: [String: String] = [:]
    private var nodeRefs: [Int64] = []
    private var elementIndex = 0

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        switch name {
        case "osm":
            sawRoot = true
        case "node":
            guard let id = attributes["id"].flatMap({ Int64($0) }) else { return fail("node without a numeric id") }
            open = .node(id: id, lat: attributes["lat"].flatMap(Double.init), lon: attributes["lon"].flatMap(Double.init))
            tags = [:]
        case "way":
            guard let id = attributes["id"].flatMap({ Int64($0) }) else { return fail("way without a numeric id") }
            open = .way(id: id)
            tags = [:]
            nodeRefs = []
        case "nd":
            guard case .way = open else { return }
            guard let ref = attributes["ref"].flatMap({ Int64($0) }) else { return fail("<nd> without a numeric ref") }
            nodeRefs.append(ref)
            if let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init) {
                do { try collector.addInline(nodeID: ref, lat: lat, lon: lon) } catch { failure = error }
            }
        case "tag":
            guard open != nil, let key = attributes["k"], let value = attributes["v"] else { return }
            tags[key] = value
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        switch (name, open) {
        case ("osm", _):
            closedRoot = true
        case ("node", .node(let id, let lat, let lon)?):
            defer { open = nil; elementIndex += 1 }
            guard let lat, let lon else { return }
            guard (-90...90).contains(lat), (-180...180).contains(lon) else {
                return fail("node \(id) has coordinates outside the globe (\(lat), \(lon))")
            }
            do { try collector.add(OSMNode(id: id, lat: lat, lon: lon, tags: tags)) } catch { failure = error }
        case ("way", .way(let id)?):
            defer { open = nil; elementIndex += 1 }
            do { try collector.add(OSMWay(id: id, nodeIDs: nodeRefs, tags: tags)) } catch { failure = error }
        default:
            break
        }
    }

    private func fail(_ message: String) {
        failure = .invalidElement(index: elementIndex, message)
    }
}

extension OSMData {
    /// Reads OSM XML, Overpass JSON or overpass-turbo GeoJSON, whichever
    /// `OSMFormat.detect` finds.
    public init(osmBytes bytes: [UInt8]) throws(OSMError) {
        switch try OSMInput(bytes: bytes) {
        case .elements(let data): self = data
        case .geoJSON(let document): try self.init(merging: [("GeoJSON", .geoJSON(document))])
        }
    }
}
