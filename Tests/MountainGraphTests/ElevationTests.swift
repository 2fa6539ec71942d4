import Foundation
import Testing
import ZipArchive
@testable import MountainGraph

@Suite("Elevation")
struct ElevationTests {
    /// An SRTM3 tile whose sample at (row, column) is `row + 2·column`, with a
    /// void at (10, 10).
    private static func syntheticTile() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 2 * 1201 * 1201)
        for row in 0..<1201 {
            for column in 0..<1201 {
                let value: Int16 = row == 10 && column == 10 ? -32768 : Int16(row + 2 * column)
                let bits = UInt16(bitPattern: value)
                bytes[2 * (row * 1201 + column)] = UInt8(bits >> 8)
                bytes[2 * (row * 1201 + column) + 1] = UInt8(bits & 0xFF)
            }
        }
        return bytes
    }

    private static let step = 1.0 / 1200

    @Test("samples are big-endian, row 0 north, bilinear between samples")
    func bilinear() throws {
        let tile = try SRTMTile(name: "N42E001.hgt", hgt: Self.syntheticTile())
        #expect(tile.south == 42 && tile.west == 1 && tile.size == 1201)
        // North-west corner is row 0, column 0.
        #expect(tile.elevation(at: Coordinate(lat: 43, lon: 1)) == 0)
        // Row 100 (100 steps south of the top), column 50.
        let exact = try #require(tile.elevation(at: Coordinate(lat: 43 - 100 * Self.step, lon: 1 + 50 * Self.step)))
        #expect(abs(exact - 200) < 1e-6)
        // Half-way between rows 100/101 and columns 50/51: 100.5 + 2·50.5.
        let middle = try #require(tile.elevation(at: Coordinate(lat: 43 - 100.5 * Self.step, lon: 1 + 50.5 * Self.step)))
        #expect(abs(middle - 201.5) < 1e-6)
        #expect(tile.elevation(at: Coordinate(lat: 44, lon: 1.5)) == nil)
    }

    @Test("voids are left out of the interpolation")
    func voids() throws {
        let tile = try SRTMTile(name: "N42E001", hgt: Self.syntheticTile())
        let atVoid = try #require(tile.elevation(at: Coordinate(lat: 43 - 10.5 * Self.step, lon: 1 + 10.5 * Self.step)))
        // Remaining corners (10,11)=32, (11,10)=31, (11,11)=33, equally weighted.
        #expect(abs(atVoid - 32) < 1e-6)
    }

    @Test("tile names give the south-west corner; bad names and sizes are refused")
    func names() throws {
        #expect(try SRTMTile.corner(fromName: "dem/S13W072.hgt.zip") == (-13, -72))
        #expect(throws: ElevationError.badTileName("X42E001.hgt")) { try SRTMTile.corner(fromName: "X42E001.hgt") }
        #expect(throws: ElevationError.badTileSize(name: "N42E001", bytes: 10)) { try SRTMTile(name: "N42E001", hgt: [UInt8](repeating: 0, count: 10)) }
    }

    @Test("a zipped tile reads the same as the plain one")
    func zipped() throws {
        let plain = Self.syntheticTile()
        var writer = ZipWriterForTiles()
        let zip = try writer.zip(name: "N42E001.hgt", contents: plain)
        let tile = try SRTMTile(fileName: "N42E001.hgt.zip", bytes: zip)
        let reference = try SRTMTile(name: "N42E001", hgt: plain)
        let point = Coordinate(lat: 42.5424, lon: 1.7333)
        #expect(tile.elevation(at: point) == reference.elevation(at: point))
    }

    @Test("ele tags come before the DEM; the elevation map is keyed by 6-decimal coordinates")
    func sources() throws {
        var f = OSMFixture()
        f.node(1, east: 0, north: 0, ele: 1234)
        f.node(2, east: 0, north: 500)
        f.run(200, [2, 1])
        let osm = try f.osm()
        let second = try #require(osm.node(2))
        let map = ElevationMap(samples: [Coordinate(lat: second.lat, lon: second.lon): 1500,
                                         Coordinate(lat: 46, lon: 7): 999])
        let graph = try GraphBuilder.build(osm: osm, parameters: OSMFixture.parameters, elevation: map).graph
        #expect(graph.node(id: "n1")?.elevation == 1234)
        #expect(graph.node(id: "n2")?.elevation == 1500)

        let json = #"{"46.000000,7.000000": 1000.5, "46.004492,7.000000": 1200}"#
        let parsed = try ElevationMap(json: Array(json.utf8))
        #expect(parsed.elevation(at: Coordinate(lat: 46.0000001, lon: 7.0)) == 1000.5)
        #expect(throws: ElevationError.self) { try ElevationMap(json: Array(#"{"nonsense": 1}"#.utf8)) }
    }

    @Test("the real Andorra tile matches its documented spot heights", .enabled(if: SharedData.hasOSMFolder, SharedData.missingReason))
    func realTile() throws {
        guard let folder = SharedData.availableOSMFolder(for: "ElevationTests.realTile") else { return }
        let url = folder.appendingPathComponent("dem/N42E001.hgt.zip")
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("⚠️  SKIPPED ElevationTests.realTile: \(url.path) not found")
            return
        }
        let tile = try SRTMTile(fileName: url.lastPathComponent, bytes: SharedData.bytes(url))
        #expect(tile.size == 1201)
        let pas = try #require(tile.elevation(at: Coordinate(lat: 42.5424, lon: 1.7333)))
        let soldeu = try #require(tile.elevation(at: Coordinate(lat: 42.5770, lon: 1.6676)))
        #expect(abs(pas - 2106) < 15, "Pas de la Casa sampled \(pas)")
        #expect(abs(soldeu - 1832) < 15, "Soldeu sampled \(soldeu)")
    }
}

/// A one-entry deflated zip, enough to wrap a tile.
struct ZipWriterForTiles {
    mutating func zip(name: String, contents: [UInt8]) throws -> [UInt8] {
        let data = try RawDeflate.compress(contents)
        let crc = CRC32.checksum(contents)
        let path = Array(name.utf8)
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var out = le32(0x0403_4b50) + le16(20) + le16(0) + le16(8) + le16(0) + le16(0)
        out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(contents.count)) + le16(path.count) + le16(0) + path + data
        let central = le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(8) + le16(0) + le16(0) + le32(crc)
            + le32(UInt32(data.count)) + le32(UInt32(contents.count)) + le16(path.count) + le16(0) + le16(0) + le16(0)
            + le16(0) + le32(0) + le32(0) + path
        let offset = out.count
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count)) + le32(UInt32(offset)) + le16(0)
        return out
    }
}
