/// Garmin Training Center XML: `Activity@Sport`, laps, and `Trackpoint`s with
/// `Time`, `Position/LatitudeDegrees|LongitudeDegrees`, `AltitudeMeters`,
/// heart rate and the `Speed` extension. Each `Track` is a segment; trackpoints
/// without a position (indoor, or GPS not yet locked) are skipped.
enum TCXParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String, hash: String, now: Double) throws(ActivityImportError) -> ParsedActivity {
        var scanner = XMLScanner(bytes)
        var track = TrackAssembler(file: fileName, now: now) { [scanner] offset in .line(scanner.line(at: offset)) }
        var sportLabel: String?
        var device: String?
        var inCreator = false
        do {
            guard case .start(let root, _, _)? = try scanner.next(), scanner.equals(root, "TrainingCenterDatabase") else {
                throw ActivityImportError(file: fileName, position: .line(1), .malformed("the root element is not <TrainingCenterDatabase>"))
            }
            while let event = try scanner.next() {
                switch event {
                case .start(let tag, let attributes, let selfClosing):
                    if scanner.equals(tag, "Activity") {
                        if sportLabel == nil { sportLabel = scanner.attribute("Sport", in: attributes).map { scanner.string($0) } }
                    } else if scanner.equals(tag, "Track") {
                        track.startSegment()
                    } else if scanner.equals(tag, "Trackpoint"), !selfClosing {
                        try readTrackpoint(&scanner, into: &track, fileName: fileName)
                    } else if scanner.equals(tag, "Creator") {
                        inCreator = true
                    } else if inCreator, scanner.equals(tag, "Name"), !selfClosing, device == nil {
                        device = try scanner.elementText().map { scanner.string($0) }
                    } else if scanner.equals(tag, "Courses") || scanner.equals(tag, "Workouts") {
                        if !selfClosing { try scanner.skipElement() }
                    }
                case .end(let tag):
                    if scanner.equals(tag, "Creator") { inCreator = false }
                case .text:
                    break
                }
            }
        } catch let failure as XMLScanner.Failure {
            throw failure.importError(file: fileName, scanner: scanner)
        } catch let error as ActivityImportError {
            throw error
        } catch {
            throw ActivityImportError(file: fileName, .malformed(String(describing: error)))
        }
        let (segments, dropped) = try track.finish()
        return ParsedActivity(format: .tcx, fileName: fileName, sourceFileHash: hash, sport: DeclaredSport(label: sportLabel),
                              device: device, segments: segments, droppedFixes: dropped)
    }

    private static func readTrackpoint(_ scanner: inout XMLScanner, into track: inout TrackAssembler, fileName: String) throws {
        let position = scanner.offset
        var time: Double?
        var lat: Double?
        var lon: Double?
        var elevation: Double?
        var speed: Double?
        var heartRate: Double?
        var inHeartRate = false
        var level = 1
        while level > 0, let event = try scanner.next() {
            switch event {
            case .start(let tag, _, let closes):
                guard !closes else { continue }
                let isNumber = scanner.equals(tag, "LatitudeDegrees") || scanner.equals(tag, "LongitudeDegrees")
                    || scanner.equals(tag, "AltitudeMeters") || scanner.equals(tag, "Speed") || (inHeartRate && scanner.equals(tag, "Value"))
                if scanner.equals(tag, "Time") {
                    guard let text = try scanner.elementText(), let parsed = TimestampFormat.parse(scanner.bytes, text) else {
                        throw ActivityImportError(file: fileName, position: .line(scanner.line(at: scanner.offset)),
                                                  .malformed("a <Time> is not an ISO 8601 date"))
                    }
                    time = parsed
                } else if isNumber {
                    guard let text = try scanner.elementText(), let value = DecimalParser.parse(scanner.bytes, text) else {
                        throw ActivityImportError(file: fileName, position: .line(scanner.line(at: scanner.offset)),
                                                  .malformed("a trackpoint value is not a number"))
                    }
                    if scanner.equals(tag, "LatitudeDegrees") { lat = value }
                    else if scanner.equals(tag, "LongitudeDegrees") { lon = value }
                    else if scanner.equals(tag, "AltitudeMeters") { elevation = value }
                    else if scanner.equals(tag, "Speed") { speed = value }
                    else { heartRate = value }
                } else {
                    if scanner.equals(tag, "HeartRateBpm") { inHeartRate = true }
                    level += 1
                }
            case .end(let tag):
                if scanner.equals(tag, "HeartRateBpm") { inHeartRate = false }
                level -= 1
            case .text:
                break
            }
        }
        guard let lat, let lon else { return }
        try track.add(time: time, lat: lat, lon: lon, elevation: elevation, speed: speed, heartRate: heartRate, at: position)
    }
}
