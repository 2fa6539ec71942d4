import Digest
import Foundation
import MountainGraph

/// One DEM file an operator gives at ingest: an SRTM `.hgt` tile (zipped or
/// not, named by its south-west corner like `N42E001.hgt.zip`) or an elevation
/// map (`{"<lat>,<lon>": metres}`). Checked before anything is stored.
package struct ElevationInput: Sendable {
    enum Format: String, Sendable {
        case srtmHGT = "srtm_hgt"
        case srtmHGTZip = "srtm_hgt_zip"
        case elevationMapJSON = "elevation_map_json"
    }

    package let fileName: String
    let format: Format
    package let bytes: [UInt8]
    let sha256: String

    package init(file: URL) throws {
        try self.init(fileName: file.lastPathComponent, bytes: ResortFiles.read(file, what: "elevation file"))
    }

    init(fileName: String, bytes: [UInt8]) throws {
        let lower = fileName.lowercased()
        let format: Format
        if lower.hasSuffix(".json") {
            format = .elevationMapJSON
        } else if lower.hasSuffix(".zip") {
            format = .srtmHGTZip
        } else if lower.hasSuffix(".hgt") {
            format = .srtmHGT
        } else {
            throw CLIError("\(fileName) is neither an SRTM tile nor an elevation map",
                           fix: "give an SRTM tile named like N42E001.hgt or N42E001.hgt.zip, or an elevation map .json")
        }
        self.fileName = fileName
        self.format = format
        self.bytes = bytes
        self.sha256 = SHA256.hex(bytes)
        _ = try source()
    }

    /// The elevation source this file provides.
    func source() throws -> any ElevationSource {
        do {
            switch format {
            case .elevationMapJSON: return try ElevationMap(json: bytes)
            case .srtmHGT, .srtmHGTZip: return try SRTMTile(fileName: fileName, bytes: bytes)
            }
        } catch {
            throw CLIError("\(fileName) is not a usable elevation file (\(error))",
                           fix: "give an SRTM tile (1201² or 3601² big-endian samples, zipped or not) or an elevation map JSON")
        }
    }

    /// Tiles and maps together, maps first: sampled values win over the DEM grid.
    static func layered(_ inputs: [ElevationInput]) throws -> (any ElevationSource)? {
        guard !inputs.isEmpty else { return nil }
        let ordered = inputs.sorted { ($0.format == .elevationMapJSON ? 0 : 1, $0.fileName) < ($1.format == .elevationMapJSON ? 0 : 1, $1.fileName) }
        var maps: [any ElevationSource] = []
        var tiles: [SRTMTile] = []
        for input in ordered {
            let source = try input.source()
            if let tile = source as? SRTMTile { tiles.append(tile) } else { maps.append(source) }
        }
        return LayeredElevation(maps + (tiles.isEmpty ? [] : [SRTMElevation(tiles: tiles)]))
    }
}
