/// Why an elevation input could not be used.
public enum ElevationError: Error, Equatable, CustomStringConvertible {
    case badTileName(String)
    case badTileSize(name: String, bytes: Int)
    case noTileInZip(String)
    case unreadableZip(String)
    case unreadableMap(String)

    public var description: String {
        switch self {
        case .badTileName(let name):
            return "'\(name)' is not an SRTM tile name; expected the south-west corner as N42E001 (optionally .hgt or .hgt.zip)"
        case .badTileSize(let name, let bytes):
            return "SRTM tile \(name) has \(bytes) bytes; expected 2·1201² (SRTM3) or 2·3601² (SRTM1)"
        case .noTileInZip(let name):
            return "zip \(name) holds no .hgt file"
        case .unreadableZip(let message):
            return "SRTM zip: \(message)"
        case .unreadableMap(let message):
            return "elevation map: \(message); expected a JSON object {\"lat,lon\": metres}"
        }
    }
}
