import ZipArchive

/// One SRTM `.hgt` tile: a square grid of big-endian signed 16-bit metres,
/// row 0 on the north edge, covering one degree from its south-west corner.
public struct SRTMTile: ElevationSource {
    /// Latitude / longitude of the south-west corner, in whole degrees.
    public let south: Int
    public let west: Int
    /// Samples per side: 1201 (3 arc-seconds) or 3601 (1 arc-second).
    public let size: Int
    private let samples: [Int16]

    static let void: Int16 = -32768

    /// A tile from raw `.hgt` bytes; the corner comes from the standard name.
    public init(name: String, hgt bytes: [UInt8]) throws(ElevationError) {
        let (south, west) = try Self.corner(fromName: name)
        let size: Int
        switch bytes.count {
        case 2 * 1201 * 1201: size = 1201
        case 2 * 3601 * 3601: size = 3601
        default: throw .badTileSize(name: name, bytes: bytes.count)
        }
        var samples = [Int16](repeating: 0, count: size * size)
        for index in 0..<samples.count {
            samples[index] = Int16(bitPattern: UInt16(bytes[2 * index]) << 8 | UInt16(bytes[2 * index + 1]))
        }
        self.south = south
        self.west = west
        self.size = size
        self.samples = samples
    }

    /// A tile from a file's bytes: a plain `.hgt` or a zip holding one.
    public init(fileName: String, bytes: [UInt8]) throws(ElevationError) {
        guard ZipArchive.looksLikeZip(bytes) else {
            try self.init(name: fileName, hgt: bytes)
            return
        }
        do {
            let archive = try ZipArchive(bytes: bytes)
            guard let entry = archive.entries.first(where: { $0.fileName.lowercased().hasSuffix(".hgt") }) else {
                throw ElevationError.noTileInZip(fileName)
            }
            try self.init(name: entry.fileName, hgt: try archive.extract(entry))
        } catch let error as ElevationError {
            throw error
        } catch {
            throw .unreadableZip("\(error)")
        }
    }

    /// Bilinear interpolation between the four surrounding samples; voids are
    /// left out and the remaining weights renormalised. Nil outside the tile or
    /// when all four samples are void.
    public func elevation(at coordinate: Coordinate) -> Double? {
        let rowPosition = (Double(south + 1) - coordinate.lat) * Double(size - 1)
        let columnPosition = (coordinate.lon - Double(west)) * Double(size - 1)
        let last = Double(size - 1)
        guard rowPosition >= 0, rowPosition <= last, columnPosition >= 0, columnPosition <= last else { return nil }
        let row = min(Int(rowPosition), size - 2)
        let column = min(Int(columnPosition), size - 2)
        let fy = rowPosition - Double(row)
        let fx = columnPosition - Double(column)
        let corners: [(Int16, Double)] = [
            (samples[row * size + column], (1 - fx) * (1 - fy)),
            (samples[row * size + column + 1], fx * (1 - fy)),
            (samples[(row + 1) * size + column], (1 - fx) * fy),
            (samples[(row + 1) * size + column + 1], fx * fy),
        ]
        var sum = 0.0
        var weight = 0.0
        for (sample, w) in corners where sample != Self.void {
            sum += Double(sample) * w
            weight += w
        }
        guard weight > 0 else { return nil }
        return sum / weight
    }

    /// Parses `N42E001`, `s13w072.hgt`, `N42E001.hgt.zip` (any path prefix).
    static func corner(fromName name: String) throws(ElevationError) -> (Int, Int) {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        let scalars = Array(base.uppercased().unicodeScalars)
        guard scalars.count >= 7 else { throw .badTileName(name) }
        let latSign: Int
        switch scalars[0] { case "N": latSign = 1; case "S": latSign = -1; default: throw .badTileName(name) }
        let lonSign: Int
        switch scalars[3] { case "E": lonSign = 1; case "W": lonSign = -1; default: throw .badTileName(name) }
        guard let lat = Int(String(String.UnicodeScalarView(scalars[1..<3]))),
              let lon = Int(String(String.UnicodeScalarView(scalars[4..<7]))),
              lat <= 90, lon <= 180 else { throw .badTileName(name) }
        return (latSign * lat, lonSign * lon)
    }

    /// The standard name of the tile whose south-west corner is `south`,`west`: `N42E001`, `S13W072`.
    public static func name(south: Int, west: Int) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return (south < 0 ? "S" : "N") + padded(south, 2) + (west < 0 ? "W" : "E") + padded(west, 3)
    }

    /// The south-west corners of the tiles that together cover the box. An edge on a
    /// whole degree needs no tile beyond it: a tile holds its north and east edges too.
    public static func corners(coveringSouth south: Double, west: Double, north: Double, east: Double) -> [(south: Int, west: Int)] {
        let rows = Int(south.rounded(.down))...max(Int(south.rounded(.down)), Int(north.rounded(.up)) - 1)
        let columns = Int(west.rounded(.down))...max(Int(west.rounded(.down)), Int(east.rounded(.up)) - 1)
        return rows.flatMap { row in columns.map { (row, $0) } }
    }
}

/// A set of SRTM tiles, looked up by the tile containing each coordinate.
public struct SRTMElevation: ElevationSource {
    private let tiles: [Int: SRTMTile]

    public init(tiles: [SRTMTile]) {
        var table = [Int: SRTMTile]()
        for tile in tiles { table[Self.key(south: tile.south, west: tile.west)] = tile }
        self.tiles = table
    }

    public func elevation(at coordinate: Coordinate) -> Double? {
        let south = Int(coordinate.lat.rounded(.down))
        let west = Int(coordinate.lon.rounded(.down))
        if let value = tiles[Self.key(south: south, west: west)]?.elevation(at: coordinate) { return value }
        // A point on a tile's north or east edge also lies in the neighbour below/left.
        if coordinate.lat == coordinate.lat.rounded(.down),
           let value = tiles[Self.key(south: south - 1, west: west)]?.elevation(at: coordinate) { return value }
        if coordinate.lon == coordinate.lon.rounded(.down),
           let value = tiles[Self.key(south: south, west: west - 1)]?.elevation(at: coordinate) { return value }
        return nil
    }

    private static func key(south: Int, west: Int) -> Int { (south + 90) * 1000 + (west + 180) }
}
