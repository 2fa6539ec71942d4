/// A south-west / north-east box in degrees, edges included.
public struct OSMBoundingBox: Sendable, Equatable {
    public let south: Double
    public let west: Double
    public let north: Double
    public let east: Double

    /// Refuses a box that is off the globe, empty or upside down.
    public init(south: Double, west: Double, north: Double, east: Double) throws(OSMError) {
        for (name, value, limit) in [("south", south, 90.0), ("west", west, 180.0), ("north", north, 90.0), ("east", east, 180.0)] {
            guard value.isFinite, abs(value) <= limit else {
                throw .invalidBoundingBox("the box's \(name) edge \(value) is not a \(limit == 90 ? "latitude (-90…90)" : "longitude (-180…180)")")
            }
        }
        guard south < north else {
            throw .invalidBoundingBox("the box's south edge \(south) is not below its north edge \(north); write the box as S,W,N,E")
        }
        guard west < east else {
            throw .invalidBoundingBox("the box's west edge \(west) is not west of its east edge \(east); write the box as S,W,N,E "
                                      + "(a box across the 180° meridian is not supported)")
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    public func contains(lat: Double, lon: Double) -> Bool {
        (south...north).contains(lat) && (west...east).contains(lon)
    }

    /// `S,W,N,E` as it is written on the command line.
    public var text: String { "\(south),\(west),\(north),\(east)" }
}

extension OSMData {
    /// The part of the snapshot in `box`: every way with at least one vertex
    /// inside, with all its vertices (inside or not, so no node reference
    /// goes missing), and every node inside the box, on its own or not.
    public func cut(to box: OSMBoundingBox) -> OSMData {
        var kept: [Int64: OSMNode] = [:]
        for (id, node) in nodes where box.contains(lat: node.lat, lon: node.lon) { kept[id] = node }
        let keptWays = ways.filter { way in way.nodeIDs.contains { kept[$0] != nil } }
        for way in keptWays {
            for id in way.nodeIDs { if let node = nodes[id] { kept[id] = node } }
        }
        return OSMData(nodes: kept, ways: keptWays)
    }
}
