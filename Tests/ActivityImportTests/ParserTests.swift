import Foundation
import Testing
@testable import ActivityImport

/// Parsers on inputs built in the test, so every case runs on a fresh clone.
@Suite("Parsers")
struct ParserTests {
    static let now = 1_900_000_000.0

    func parse(_ text: String, _ name: String = "t.gpx") throws(ActivityImportError) -> ParsedActivity {
        try ActivityParser.parse(Array(text.utf8), fileName: name, now: Self.now)
    }

    func refusal(_ bytes: [UInt8], _ name: String) -> ActivityImportError? {
        do { _ = try ActivityParser.parse(bytes, fileName: name, now: Self.now); return nil } catch { return error }
    }

    // MARK: text primitives

    @Test("ISO 8601 and Slopes dates, with offsets and any number of fraction digits")
    func timestamps() {
        #expect(TimestampFormat.parse("2024-01-25T09:13:52.453-07:00") == 1_706_199_232.453)
        #expect(TimestampFormat.parse("2024-01-25T16:13:52Z") == 1_706_199_232)
        #expect(TimestampFormat.parse("2024-01-25 09:13:52 -0700") == 1_706_199_232)
        #expect(TimestampFormat.parse("2016-05-27T10:08:47.8Z") == 1_464_343_727.8)
        #expect(TimestampFormat.parse("2024-01-25T16:13:52") == 1_706_199_232)
        #expect(TimestampFormat.parse("2024-13-25T16:13:52Z") == nil)
        #expect(TimestampFormat.parse("yesterday") == nil)
    }

    @Test("decimal numbers from bytes")
    func decimals() {
        func parse(_ s: String) -> Double? {
            let bytes = Array(s.utf8)
            return bytes.withUnsafeBufferPointer { DecimalParser.parse($0, 0..<$0.count) }
        }
        #expect(parse("-105.941414") == -105.941414)
        #expect(parse(" 2856.891977\n") == 2856.891977)
        #expect(parse("1e3") == 1000)
        #expect(parse("47.0730590820312500") == 47.07305908203125)
        #expect(parse("0.000001") == 0.000001)
        #expect(parse("12a") == nil)
        #expect(parse("-") == nil)
    }

    // MARK: GPX

    static let gpx = """
        \u{FEFF}<?xml version="1.0"?>
        <!-- a comment -->
        <gpx version="1.1" creator="Test &amp; Co" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gte="x">
          <metadata><name>ignored</name></metadata>
          <wpt lat="1" lon="1"><name>a waypoint is not a fix</name></wpt>
          <trk><name><![CDATA[Keystone]]></name><type>alpine_skiing</type>
            <trkseg>
              <trkpt lat="39.6" lon="-105.9"><ele>2856.5</ele><time>2024-01-25T09:13:52.453-07:00</time>
                <extensions><gte:gps speed="1.5" azimuth="2"/></extensions></trkpt>
              <trkpt lon="-105.9001" lat="39.6001"><ele>2850</ele><time>2024-01-25T09:13:54-07:00</time><speed>2.5</speed></trkpt>
            </trkseg>
            <trkseg></trkseg>
            <trkseg>
              <trkpt lat="0" lon="0"><time>2024-01-25T16:14:00Z</time></trkpt>
              <trkpt lat="39.6002" lon="-105.9002"><ele>2845</ele><time>2024-01-25T16:14:10Z</time></trkpt>
            </trkseg>
          </trk>
        </gpx>
        """

    /// A GPX whose track name is "Vallée" in Latin-1 bytes (0xE9), declaring `declaration`.
    static func latin1GPX(declaring declaration: String?) -> [UInt8] {
        let head = declaration.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>" } ?? ""
        return Array((head + "<gpx><trk><name>Vall").utf8) + [0xE9] + Array("""
            e</name><trkseg><trkpt lat="45.9" lon="6.9"><ele>1000</ele><time>2024-01-25T16:14:00Z</time></trkpt>\
            <trkpt lat="45.901" lon="6.9"><ele>990</ele><time>2024-01-25T16:14:10Z</time></trkpt></trkseg></trk></gpx>
            """.utf8)
    }

    @Test("names keep their text: bytes that are not UTF-8 are refused where UTF-8 is declared, decoded where Latin-1 or windows-1252 is")
    func namesInDeclaredEncodings() throws {
        for declaration in [nil, "UTF-8"] as [String?] {
            let error = try #require(refusal(Self.latin1GPX(declaring: declaration), "latin1.gpx"), "\(declaration ?? "no declaration")")
            #expect(error.explanation.contains("not valid UTF-8 (byte 0xE9)"), "\(error.explanation)")
            #expect(error.explanation.contains("save the file as UTF-8 or declare its real encoding"), "\(error.explanation)")
            #expect(!error.explanation.contains("\u{FFFD}"))
        }
        for declaration in ["ISO-8859-1", "windows-1252"] {
            let activity = try ActivityParser.parse(Self.latin1GPX(declaring: declaration), fileName: "latin1.gpx", now: Self.now)
            #expect(activity.name == "Vallée", "\(declaration): \(activity.name ?? "no name")")
        }
    }

    @Test("GPX: segments, zone offsets, namespaced speed, the 0,0 sentinel dropped, name and sport")
    func gpxBasics() throws {
        let activity = try parse(Self.gpx)
        #expect(activity.format == .gpx)
        #expect(activity.segments.count == 2)
        #expect(activity.pointCount == 3)
        #expect(activity.droppedFixes == 1)
        #expect(activity.name == "Keystone")
        #expect(activity.device == "Test & Co")
        #expect(activity.sport == .downhill)
        let first = activity.segments[0][0]
        #expect(first.time == 1_706_199_232.453)
        #expect(first.lat == 39.6 && first.lon == -105.9 && first.elevation == 2856.5)
        #expect(abs(first.speed! - 1.5 / 2.236936) < 1e-9) // gte:gps speed is miles per hour
        #expect(activity.segments[0][1].speed == 2.5)
    }

    @Test("GPX: time going backwards is refused with the line")
    func gpxBackwards() {
        let text = Self.gpx.replacingOccurrences(of: "2024-01-25T09:13:54-07:00", with: "2024-01-25T09:13:50-07:00")
        let error = refusal(Array(text.utf8), "back.gpx")
        #expect(error?.code == "non_monotonic_time")
        #expect(error?.position == .line(10))
        #expect(error?.description.hasPrefix("back.gpx (line 10): time goes backwards") == true)
    }

    @Test("GPX: a position off the Earth, a cut-off file, untimed tracks, no track at all")
    func gpxRefusals() {
        #expect(refusal(Array(Self.gpx.replacingOccurrences(of: "lat=\"39.6\"", with: "lat=\"139.6\"").utf8), "a.gpx")?.code == "absurd_coordinate")
        #expect(refusal(Array(Self.gpx.utf8.prefix(700)), "cut.gpx")?.code == "truncated")
        let untimed = Self.gpx.replacingOccurrences(of: #"<time>[^<]*</time>"#, with: "", options: .regularExpression)
        #expect(refusal(Array(untimed.utf8), "untimed.gpx")?.code == "missing_timestamps")
        #expect(refusal(Array("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8), "w.gpx")?.code == "no_track_points")
        #expect(refusal(Array("<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"2\"/></trkseg></trk></gpx>".utf8), "n.gpx")?.code == "malformed")
        #expect(refusal(Array(Self.gpx.replacingOccurrences(of: "<speed>2.5</speed>", with: "<speed>300</speed>").utf8), "s.gpx")?.code == "absurd_speed")
        #expect(refusal([], "e.gpx")?.code == "empty_file")
        #expect(refusal(Array("hello".utf8), "notes.txt")?.code == "unrecognized_format")
    }

    // MARK: TCX

    @Test("TCX: trackpoints with positions, the Speed extension and the sport")
    func tcx() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="x">
             <Activities><Activity Sport="Running"><Id>2012-12-26T21:29:53Z</Id>
              <Lap StartTime="2012-12-26T21:29:53Z"><TotalTimeSeconds>10</TotalTimeSeconds><Track>
               <Trackpoint><Time>2012-12-26T21:29:53Z</Time><Position><LatitudeDegrees>35.95</LatitudeDegrees>
                 <LongitudeDegrees>-79.09</LongitudeDegrees></Position><AltitudeMeters>178.9</AltitudeMeters>
                 <HeartRateBpm><Value>62</Value></HeartRateBpm><Extensions><ns3:TPX><ns3:Speed>3.2</ns3:Speed></ns3:TPX></Extensions></Trackpoint>
               <Trackpoint><Time>2012-12-26T21:29:54Z</Time><HeartRateBpm><Value>63</Value></HeartRateBpm></Trackpoint>
               <Trackpoint><Time>2012-12-26T21:29:55Z</Time><Position><LatitudeDegrees>35.9501</LatitudeDegrees>
                 <LongitudeDegrees>-79.0901</LongitudeDegrees></Position></Trackpoint>
              </Track></Lap></Activity></Activities>
             <Author><Name>x</Name></Author>
            </TrainingCenterDatabase>
            """
        let activity = try parse(text, "run.tcx")
        #expect(activity.format == .tcx)
        #expect(activity.pointCount == 2)
        #expect(activity.sport == .other("Running"))
        let first = activity.points[0]
        #expect(first.time == 1_356_557_393 && first.elevation == 178.9 && first.speed == 3.2 && first.heartRate == 62)
    }

    // MARK: FIT

    func sampleFIT(bigEndian: Bool = false, sport: UInt8 = 13, developerBytes: Int = 0) -> [UInt8] {
        var writer = FITWriter()
        writer.bigEndian = bigEndian
        writer.defineStandardMessages(developerBytes: developerBytes)
        writer.fileID()
        writer.sport(sport)
        writer.record(time: 1_706_199_232, lat: 39.6, lon: -105.9, altitude: 2856.4, speed: 4.25, developerBytes: developerBytes)
        writer.record(time: 1_706_199_233, lat: 39.6001, lon: -105.9001, altitude: 2855, speed: 5, developerBytes: developerBytes)
        return writer.file()
    }

    @Test("FIT: records scaled to degrees, metres, m/s and UTC; alpine skiing declared", arguments: [false, true])
    func fitRecords(bigEndian: Bool) throws {
        let activity = try ActivityParser.parse(sampleFIT(bigEndian: bigEndian), fileName: "day.fit", now: Self.now)
        #expect(activity.format == .fit)
        #expect(activity.sport == .downhill)
        #expect(activity.device == "Garmin product 2")
        #expect(activity.pointCount == 2)
        let first = activity.points[0]
        #expect(first.time == 1_706_199_232)
        #expect(abs(first.lat - 39.6) < 1e-7 && abs(first.lon + 105.9) < 1e-7)
        #expect(abs(first.elevation! - 2856.4) < 0.1)
        #expect(first.speed == 4.25)
    }

    @Test("FIT: developer fields are skipped by size; other sports are declared as such")
    func fitDeveloperFields() throws {
        let activity = try ActivityParser.parse(sampleFIT(sport: 2, developerBytes: 3), fileName: "ride.fit", now: Self.now)
        #expect(activity.pointCount == 2)
        #expect(abs(activity.points[1].lat - 39.6001) < 1e-7)
        #expect(activity.sport == .other("cycling"))
    }

    @Test("FIT: compressed-timestamp headers count on from the last full timestamp, across the 32 s rollover")
    func fitCompressedTimestamps() throws {
        var writer = FITWriter()
        writer.defineStandardMessages()
        let base = 1_706_199_232.0 // FIT time ends in …11100 binary: offsets wrap soon
        writer.record(time: base, lat: 39.6, lon: -105.9, altitude: 2800, speed: 3)
        let low = UInt8(UInt64(base - FITWriter.epoch) & 0x1F)
        writer.compressedRecord(offset: (low + 2) & 0x1F, lat: 39.6001, lon: -105.9, altitude: 2799, speed: 3)
        writer.compressedRecord(offset: (low + 6) & 0x1F, lat: 39.6002, lon: -105.9, altitude: 2798, speed: 3)
        let activity = try ActivityParser.parse(writer.file(), fileName: "c.fit", now: Self.now)
        #expect(activity.points.map(\.time) == [base, base + 2, base + 6])
    }

    @Test("FIT: a flipped byte fails the CRC, a cut file is truncated, undefined local types and device clocks are refused")
    func fitRefusals() {
        var corrupt = sampleFIT()
        corrupt[40] ^= 0x01
        let crc = refusal(corrupt, "bad.fit")
        #expect(crc?.code == "checksum_mismatch")
        #expect(crc?.position == .byte(corrupt.count - 2))
        #expect(refusal(Array(sampleFIT().dropLast(5)), "cut.fit")?.code == "truncated")
        #expect(refusal(Array(sampleFIT().prefix(9)), "tiny.fit")?.code == "truncated")

        var undefined = FITWriter()
        undefined.records = [0x05, 1, 2, 3]
        #expect(refusal(undefined.file(), "undefined.fit")?.code == "malformed")

        var deviceClock = FITWriter()
        deviceClock.defineStandardMessages()
        deviceClock.record(time: FITWriter.epoch + 1000, lat: 39.6, lon: -105.9, altitude: 2800, speed: 3)
        #expect(refusal(deviceClock.file(), "clock.fit")?.code == "time_not_utc")

        var chained = sampleFIT()
        chained += [14, 0x20, 0, 0, 0, 0, 0, 0, 0x2E, 0x46, 0x49]
        #expect(refusal(chained, "chained.fit")?.code == "truncated")
    }

    // MARK: Slopes and Ski Tracks

    static let slopesCSV = """
        1706199232.0,39.6,-105.9,2856.0,-1.0,-1.0,8.4,7.6
        1706199232.0,39.6,-105.9,2856.0,-1.0,-1.0,8.4,7.6
        1706199240.5,39.6001,-105.9001,2850.0,12.0,3.5,5.0,4.0
        0,0.0,0.0,0,0,0,0,0
        """

    static let slopesMetadata = """
        <?xml version="1.0" encoding="UTF-8"?><Activity locationName="Keystone Resort" source="8"><actions>\
        <Action type="Lift" start="2024-01-25 09:13:50 -0700" end="2024-01-25 09:13:55 -0700" trackIDs="L1"/>\
        <Action type="Run" start="2024-01-25 09:13:56 -0700" end="2024-01-25 09:20:00 -0700"></Action></actions></Activity>
        """

    @Test("Slopes: GPS.csv preferred, duplicates and the 0,0 row dropped, −1 speed unknown, labelled actions kept")
    func slopes() throws {
        let archive = try TestZip.archive([("GPS.csv", Array(Self.slopesCSV.utf8)), ("RawGPS.csv", Array("garbage".utf8)),
                                           ("Metadata.xml", Array(Self.slopesMetadata.utf8))])
        let activity = try ActivityParser.parse(archive, fileName: "day.slopes", now: Self.now)
        #expect(activity.format == .slopes)
        #expect(activity.name == "Keystone Resort")
        #expect(activity.pointCount == 2)
        #expect(activity.points[0].speed == nil && activity.points[1].speed == 3.5)
        #expect(activity.points[1].horizontalAccuracy == 5)
        #expect(activity.labelledSections.map(\.kind) == [.lift, .run])
        #expect(activity.labelledSections[0].start == 1_706_199_230 && activity.labelledSections[0].label == "L1")
    }

    @Test("Slopes: Apple reference-date and millisecond times are recognised by magnitude")
    func slopesEpochs() throws {
        let csv = "727_891_232.0,39.6,-105.9,2856,-1,-1,5,5\n1706199240500,39.6001,-105.9001,2850,-1,-1,5,5\n"
            .replacingOccurrences(of: "_", with: "")
        let archive = try TestZip.archive([("RawGPS.csv", Array(csv.utf8))])
        let activity = try ActivityParser.parse(archive, fileName: "old.slopes", now: Self.now)
        #expect(activity.points.map(\.time) == [1_706_198_432, 1_706_199_240.5])
    }

    @Test("Slopes: a corrupt entry or a bad row is refused, naming the entry and line")
    func slopesRefusals() throws {
        var archive = try TestZip.archive([("GPS.csv", Array(Self.slopesCSV.utf8))], deflate: false)
        archive[40] ^= 0x20
        #expect(refusal(archive, "corrupt.slopes")?.code == "checksum_mismatch")
        let bad = try TestZip.archive([("GPS.csv", Array("1706199232,39.6,-105.9,1\n1706199233,north,-105.9,1\n".utf8))])
        let error = refusal(bad, "bad.slopes")
        #expect(error?.code == "malformed")
        #expect(error?.position == .entry("GPS.csv", line: 2))
        #expect(refusal(try TestZip.archive([("Metadata.xml", Array(Self.slopesMetadata.utf8))]), "nogps.slopes")?.code == "malformed")
        #expect(refusal(Array(archive.prefix(30)), "cut.slopes")?.code == "malformed")
    }

    @Test("Ski Tracks: Nodes.csv fixes and Segment.csv labels")
    func skiTracks() throws {
        let segments = "4\n1706199230,1706199235,10,0,1,Lift 1,,ski_lift,,\n1706199236,1706199300,8,0,1,Run 1,,ski_run,,\n"
        let archive = try TestZip.archive([("Nodes.csv", Array(Self.slopesCSV.utf8)), ("Segment.csv", Array(segments.utf8)),
                                           ("Track.xml", Array("<track description=\"Georgian Peaks\" platform=\"iPhone\"/>".utf8))])
        let activity = try ActivityParser.parse(archive, fileName: "day.skiz", now: Self.now)
        #expect(activity.format == .skiz && activity.format.source == "skitracks")
        #expect(activity.name == "Georgian Peaks")
        #expect(activity.labelledSections.map(\.kind) == [.lift, .run])
    }

    // MARK: Identity

    @Test("the dedup hash depends on the 15 s start bucket, the resort and the edge, not on the app")
    func dedupHash() {
        let a = ImportedRun.dedupHash(runAt: 1_706_199_232, resortID: "keystone", edgeID: "t12", duration: 300)
        #expect(a == "113746615|keystone|t12")
        #expect(ImportedRun.dedupHash(runAt: 1_706_199_234, resortID: "keystone", edgeID: "t12", duration: 10) == a)
        #expect(ImportedRun.dedupHash(runAt: 1_706_199_232, resortID: "keystone", edgeID: nil, duration: 304) == "113746615|keystone|unmatched|d30")
        #expect(ImportedRun.dedupHash(runAt: 1_706_199_250, resortID: "keystone", edgeID: "t12", duration: 300) != a)
    }
}
