import Foundation
import MountainGraph
import Testing
import ZipArchive
@testable import ActivityImport

/// A seeded mutation fuzzer with a fixed budget, run in CI: valid FIT files,
/// Slopes archives and GPX documents are damaged at random (bit flips, magic
/// values, truncation, duplicated or inserted chunks, rewritten length
/// fields) and fed to the readers. Each input must either parse into a sane
/// track or be refused with a typed error; a crash fails the whole run. The
/// same seed always produces the same inputs, so a failure reproduces.
@Suite("Fuzzing the FIT and zip readers")
struct FuzzTests {
    static let now = 1_900_000_000.0

    struct Mutator {
        var random: SeededGenerator

        mutating func mutate(_ input: [UInt8]) -> [UInt8] {
            var bytes = input
            let rounds = random.integer(1...4)
            for _ in 0..<rounds {
                guard !bytes.isEmpty else { bytes = [UInt8(truncatingIfNeeded: random.next())]; continue }
                let position = random.integer(0...(bytes.count - 1))
                switch random.integer(0...6) {
                case 0: bytes[position] ^= UInt8(1 << random.integer(0...7))
                case 1: bytes[position] = [0x00, 0xFF, 0x7F, 0x80, 0x40, 0x0E][random.integer(0...5)]
                case 2: bytes.removeSubrange(position...)
                case 3:
                    let length = random.integer(1...min(64, bytes.count - position))
                    bytes.insert(contentsOf: bytes[position..<(position + length)], at: position)
                case 4: bytes.insert(contentsOf: (0..<random.integer(1...16)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: position)
                case 5:
                    // A length or offset field: four bytes of a large or small number.
                    let value = UInt32(truncatingIfNeeded: random.next() >> UInt64(random.integer(0...31)))
                    for k in 0..<min(4, bytes.count - position) { bytes[position + k] = UInt8((value >> (8 * UInt32(k))) & 0xFF) }
                default: bytes.removeSubrange(position..<min(bytes.count, position + random.integer(1...32)))
                }
            }
            return bytes
        }
    }

    /// Parses and, when accepted, checks the track is sane and runs the whole import on it.
    static func exercise(_ bytes: [UInt8], name: String) -> Bool {
        do {
            let activity = try ActivityParser.parse(bytes, fileName: name, now: now)
            var last = -Double.infinity
            for point in activity.points {
                #expect(point.time.isFinite && point.time > last, "\(name): time out of order after mutation")
                #expect(abs(point.lat) <= 90 && abs(point.lon) <= 180)
                last = point.time
            }
            _ = SkiDayImport(activity, matcher: nil, options: .init(resortID: "fuzz"))
            return true
        } catch {
            #expect(!error.code.isEmpty && error.file == name)
            return false
        }
    }

    static func seedFITFiles() -> [[UInt8]] {
        var files: [[UInt8]] = []
        for (bigEndian, developer) in [(false, 0), (true, 2), (false, 5)] {
            var writer = FITWriter()
            writer.bigEndian = bigEndian
            writer.defineStandardMessages(developerBytes: developer)
            writer.fileID()
            writer.sport(13)
            var time = 1_706_199_232.0
            for k in 0..<40 {
                if k % 3 == 2 {
                    writer.compressedRecord(offset: UInt8(UInt64(time + 1 - FITWriter.epoch) & 0x1F), lat: 39.6 + Double(k) * 1e-4,
                                            lon: -105.9, altitude: 3000 - Double(k), speed: 8)
                } else {
                    writer.record(time: time + 1, lat: 39.6 + Double(k) * 1e-4, lon: -105.9, altitude: 3000 - Double(k), speed: 8,
                                  developerBytes: developer)
                }
                time += 1
            }
            files.append(writer.file())
        }
        return files
    }

    /// A FIT file whose header sizes and both CRCs agree with whatever body it now has.
    static func resealed(_ input: [UInt8]) -> [UInt8] {
        guard input.count >= 16 else { return input }
        var bytes = Array(input.dropLast(2))
        bytes[0] = 14
        let size = UInt32(bytes.count - 14)
        for k in 0..<4 { bytes[4 + k] = UInt8((size >> (8 * UInt32(k))) & 0xFF) }
        bytes.replaceSubrange(8..<12, with: Array(".FIT".utf8))
        let header = bytes.withUnsafeBufferPointer { FITCRC.checksum($0, 0..<12) }
        bytes[12] = UInt8(header & 0xFF)
        bytes[13] = UInt8(header >> 8)
        let crc = bytes.withUnsafeBufferPointer { FITCRC.checksum($0, 0..<$0.count) }
        return bytes + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    static func seedSlopesArchive() throws -> [UInt8] {
        var csv = ""
        for k in 0..<60 { csv += "\(1_706_199_232 + k * 2).5,\(39.6 + Double(k) * 1e-4),-105.9,\(3000 - k * 3),90,8.5,5,4\n" }
        let metadata = "<Activity locationName=\"K\"><actions><Action type=\"Run\" start=\"2024-01-25 09:13:52 -0700\" end=\"2024-01-25 09:15:50 -0700\"/></actions></Activity>"
        return try TestZip.archive([("GPS.csv", Array(csv.utf8)), ("Metadata.xml", Array(metadata.utf8))])
    }

    @Test("20 000 mutated FIT files: no crash, only typed refusals or sane tracks")
    func fit() {
        var mutator = Mutator(random: SeededGenerator(seed: 0xF17))
        let seeds = Self.seedFITFiles()
        for seed in seeds { #expect(Self.exercise(seed, name: "seed.fit")) }
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = mutator.mutate(seeds[round % seeds.count])
            // Every other input is resealed (sizes and CRCs made consistent again), so the
            // damage reaches the message decoder instead of stopping at the checksum.
            if round % 2 == 1 { bytes = Self.resealed(bytes) }
            if Self.exercise(bytes, name: "fuzz.fit") { accepted += 1 }
        }
        print("FIT fuzz: 20000 inputs, \(accepted) accepted, \(20_000 - accepted) refused with a typed error")
        #expect(accepted > 0 && accepted < 20_000)
    }

    @Test("10 000 mutated Slopes archives through the zip reader and the importer: no crash")
    func zip() throws {
        var mutator = Mutator(random: SeededGenerator(seed: 0x21F))
        let seed = try Self.seedSlopesArchive()
        #expect(Self.exercise(seed, name: "seed.slopes"))
        var accepted = 0
        for _ in 0..<10_000 {
            let bytes = mutator.mutate(seed)
            // The zip reader on its own, every entry extracted…
            if let archive = try? ZipArchive(bytes: bytes) {
                for entry in archive.entries { _ = try? archive.extract(entry, limit: 1 << 20) }
            }
            // …and the whole Slopes import.
            if Self.exercise(bytes, name: "fuzz.slopes") { accepted += 1 }
        }
        print("zip fuzz: 10000 inputs, \(accepted) accepted")
        #expect(accepted < 10_000)
    }

    @Test("5 000 mutated GPX documents: no crash")
    func gpx() {
        var mutator = Mutator(random: SeededGenerator(seed: 0x6F))
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><name>x</name><trkseg>"
        for k in 0..<40 {
            text += "<trkpt lat=\"\(39.6 + Double(k) * 1e-4)\" lon=\"-105.9\"><ele>\(3000 - k * 3)</ele><time>2024-01-25T16:\(10 + k / 60):\(String(format: "%02d", k % 60))Z</time></trkpt>"
        }
        text += "</trkseg></trk></gpx>"
        let seed = Array(text.utf8)
        #expect(Self.exercise(seed, name: "seed.gpx"))
        for _ in 0..<5_000 { _ = Self.exercise(mutator.mutate(seed), name: "fuzz.gpx") }
    }
}
