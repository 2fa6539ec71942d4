/// Why an OSM document could not be read.
public enum OSMError: Error, Equatable, CustomStringConvertible {
    case json(JSONError)
    case xml(String)
    case notOverpassJSON(String)
    case invalidElement(index: Int, String)
    case conflictingNode(id: Int64)
    case duplicateWay(id: Int64)
    /// The document is JSON but not a GeoJSON FeatureCollection.
    case notGeoJSON(String)
    /// One GeoJSON feature cannot be read: its position in `features` and
    /// its id (`way/…`, `node/…`) when it has one.
    case invalidFeature(index: Int, id: String?, String)
    /// Two inputs (or two features of one input) disagree about one element.
    case differingElement(String, aspect: String, first: String, second: String)
    /// A GeoJSON vertex sits where two node features with different ids sit.
    case ambiguousVertex(wayID: Int64, lat: Double, lon: Double, nodeIDs: [Int64])
    /// Two distinct coordinates round to the same 7-decimal point, so the
    /// node id derived from that point would name two vertices.
    case coordinatesShareNodeID(Coordinate, Coordinate, nodeID: Int64)
    case invalidBoundingBox(String)

    public var description: String {
        switch self {
        case .json(let error):
            return "OSM JSON: \(error)"
        case .xml(let message):
            return "OSM XML: \(message)"
        case .notOverpassJSON(let message):
            return "not Overpass JSON: \(message); expected {\"elements\":[…]} as written by `out body` or `out geom`"
        case .invalidElement(let index, let message):
            return "OSM element #\(index): \(message)"
        case .conflictingNode(let id):
            return "node \(id) appears twice with different coordinates; the extract is inconsistent, fetch it again"
        case .duplicateWay(let id):
            return "way \(id) appears twice with different contents; the extract is inconsistent, fetch it again"
        case .notGeoJSON(let message):
            return "not GeoJSON: \(message); expected {\"type\":\"FeatureCollection\",\"features\":[…]} as overpass-turbo exports it"
        case .invalidFeature(let index, let id, let message):
            return "GeoJSON feature #\(index) (\(id ?? "no id")): \(message)"
        case .differingElement(let element, let aspect, let first, let second) where first == second:
            return "\(element) appears twice in \(first) with different \(aspect); the export is inconsistent, export it again"
        case .differingElement(let element, let aspect, let first, let second):
            return "\(element) differs between \(first) and \(second) (\(aspect)); give files from one export, or leave one of them out"
        case .ambiguousVertex(let wayID, let lat, let lon, let nodeIDs):
            return "way \(wayID) has a vertex at \(lat),\(lon), where nodes \(nodeIDs.map(String.init).joined(separator: " and ")) all sit; "
                + "which of them the way uses cannot be told from coordinates"
        case .coordinatesShareNodeID(let a, let b, let nodeID):
            return "vertices \(a.lat),\(a.lon) and \(b.lat),\(b.lon) are distinct but equal at 7 decimals (node id \(nodeID)); "
                + "export the coordinates as OSM stores them (7 decimals)"
        case .invalidBoundingBox(let message):
            return message
        }
    }
}

extension OSMError {
    /// Runs a JSON reader's scan: OSM errors as they are, syntax errors as
    /// `.json`, anything else through `other`.
    static func reading<T>(other: (String) -> OSMError, _ scan: () throws -> T) throws(OSMError) -> T {
        do {
            return try scan()
        } catch let error as OSMError {
            throw error
        } catch let error as JSONError {
            throw .json(error)
        } catch {
            throw other("\(error)")
        }
    }
}
