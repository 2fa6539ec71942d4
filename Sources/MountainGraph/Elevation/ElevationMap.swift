/// Sampled elevations keyed by `"<lat %.6f>,<lon %.6f>"`, as the snapshot job
/// stores them beside the OSM extract.
public struct ElevationMap: ElevationSource {
    private let samples: [MicroCoordinate: Double]

    public init(samples: [Coordinate: Double]) {
        var table = [MicroCoordinate: Double]()
        for (coordinate, value) in samples { table[MicroCoordinate(coordinate)] = value }
        self.samples = table
    }

    /// Reads the JSON object form; keys must be `lat,lon` and values numbers.
    public init(json bytes: [UInt8]) throws(ElevationError) {
        var table = [MicroCoordinate: Double]()
        do {
            var scanner = try JSONScanner(bytes: bytes)
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONError) in
                let parts = key.split(separator: ",")
                guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
                    throw scanner.error("key '\(key)' is not \"lat,lon\"")
                }
                if try scanner.readNullIfPresent() { return }
                table[MicroCoordinate(Coordinate(lat: lat, lon: lon))] = try scanner.readDouble()
            }
        } catch {
            throw .unreadableMap("\(error)")
        }
        self.samples = table
    }

    public func elevation(at coordinate: Coordinate) -> Double? {
        samples[MicroCoordinate(coordinate)]
    }
}

/// A coordinate rounded to 1e-6 degrees, the precision of the map's keys.
struct MicroCoordinate: Hashable {
    let lat: Int64
    let lon: Int64

    init(_ coordinate: Coordinate) {
        lat = Int64((coordinate.lat * 1_000_000).rounded())
        lon = Int64((coordinate.lon * 1_000_000).rounded())
    }
}
