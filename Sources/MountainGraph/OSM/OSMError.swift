/// Why an OSM document could not be read.
public enum OSMError: Error, Equatable, CustomStringConvertible {
    case json(JSONError)
    case xml(String)
    case notOverpassJSON(String)
    case invalidElement(index: Int, String)
    case conflictingNode(id: Int64)
    case duplicateWay(id: Int64)

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
        }
    }
}
