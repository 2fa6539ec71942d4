import Foundation
import MountainGraph

extension ElevationInput {
    /// The SRTM tiles in `directory` that cover `box`, each named by its
    /// south-west corner (`N42E001.hgt.zip` or `N42E001.hgt`, any case),
    /// read and checked as `--elevation` files are. A tile the box needs and
    /// the folder lacks is an error naming it.
    static func srtmTiles(in directory: URL, covering box: OSMBoundingBox) throws -> [ElevationInput] {
        try srtmTileFiles(in: directory, covering: box).map { try ElevationInput(file: $0) }
    }

    /// The files of those tiles, found but not read.
    static func srtmTileFiles(in directory: URL, covering box: OSMBoundingBox) throws -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw CLIError("cannot read the folder \(directory.path) (--dem-dir)", fix: "give the folder that holds the SRTM tiles (N42E001.hgt.zip and so on)")
        }
        let byLowercasedName = Dictionary(names.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let corners = SRTMTile.corners(coveringSouth: box.south, west: box.west, north: box.north, east: box.east)
        return try corners.map { corner in
            let tile = SRTMTile.name(south: corner.south, west: corner.west)
            guard let file = [".hgt.zip", ".hgt"].lazy.compactMap({ byLowercasedName[(tile + $0).lowercased()] }).first else {
                throw CLIError("\(directory.path) has no \(tile).hgt.zip (or \(tile).hgt), the SRTM tile of lat \(corner.south) to \(corner.south + 1), "
                               + "lon \(corner.west) to \(corner.west + 1), "
                               + "which the box \(box.text) needs (it needs \(corners.map { SRTMTile.name(south: $0.south, west: $0.west) }.joined(separator: ", ")))",
                               fix: "put that tile in the folder, or give --assume-flat to build the ways without elevation")
            }
            return directory.appendingPathComponent(file)
        }
    }
}
