/// GPX 1.0 and 1.1: `trk/trkseg/trkpt` with `ele`, `time`, and speed or heart
/// rate from `<speed>` (1.0), any namespaced `*:speed`, `gte:gps@speed` or
/// `gpxtpx:hr`. Each `trkseg` is a segment; `trk/name` is the resort hint and
/// `trk/type` the sport. Routes and waypoints are not recordings and are ignored.
enum GPXParser {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String, hash: String, now: Double) throws(ActivityImportError) -> ParsedActivity {
        var scanner = XMLScanner(bytes)
        var track = TrackAssembler(file: fileName, now: now) { [scanner] offset in .line(scanner.line(at: offset)) }
        var device: String?
        var name: String?
        var sportLabel: String?
        var depthInTrk = 0
        do {
            guard case .start(let root, let attributes, _)? = try scanner.next(), scanner.equals(root, "gpx") else {
                throw ActivityImportError(file: fileName, position: .line(1), .malformed("the root element is not <gpx>"))
            }
            device = scanner.attribute("creator", in: attributes).map { scanner.string($0) }
            while let event = try scanner.next() {
                switch event {
                case .start(let tag, let attributes, let selfClosing):
                    if scanner.equals(tag, "trk") {
                        depthInTrk = 1
                    } else if scanner.equals(tag, "trkseg") {
                        track.startSegment()
                    } else if scanner.equals(tag, "trkpt") {
                        try readPoint(&scanner, attributes: attributes, selfClosing: selfClosing, into: &track, fileName: fileName)
                    } else if depthInTrk == 1, scanner.equals(tag, "name"), !selfClosing {
                        if let text = try scanner.elementText() {
                            let value = try scanner.name(text).trimmingCharacters(in: .whitespacesAndNewlines)
                            if !value.isEmpty, name == nil { name = value }
                        }
                    } else if depthInTrk == 1, scanner.equals(tag, "type"), !selfClosing {
                        if let text = try scanner.elementText() { sportLabel = scanner.string(text).trimmingCharacters(in: .whitespacesAndNewlines) }
                    } else if scanner.equals(tag, "wpt") || scanner.equals(tag, "rte") || scanner.equals(tag, "metadata") {
                        if !selfClosing { try scanner.skipElement() }
                    } else if depthInTrk > 0, !selfClosing {
                        depthInTrk += 1
                    }
                case .end(let tag):
                    if scanner.equals(tag, "trk") { depthInTrk = 0 } else if depthInTrk > 1 { depthInTrk -= 1 }
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
        return ParsedActivity(format: .gpx, fileName: fileName, sourceFileHash: hash, sport: DeclaredSport(label: sportLabel),
                              device: device, name: name, segments: segments, droppedFixes: dropped)
    }

    private static func readPoint(_ scanner: inout XMLScanner, attributes: Range<Int>, selfClosing: Bool,
                                  into track: inout TrackAssembler, fileName: String) throws -> Void {
        let position = scanner.offset
        guard let latRange = scanner.attribute("lat", in: attributes), let lonRange = scanner.attribute("lon", in: attributes),
              let lat = DecimalParser.parse(scanner.bytes, latRange), let lon = DecimalParser.parse(scanner.bytes, lonRange) else {
            throw ActivityImportError(file: fileName, position: .line(scanner.line(at: position)),
                                      .malformed("a <trkpt> has no numeric lat and lon"))
        }
        var elevation: Double?
        var time: Double?
        var speed: Double?
        var heartRate: Double?
        if !selfClosing {
            var level = 1
            while level > 0, let event = try scanner.next() {
                switch event {
                case .start(let tag, let attributes, let closes):
                    if scanner.equals(tag, "ele") || scanner.equals(tag, "time") || scanner.equals(tag, "speed")
                        || scanner.equals(tag, "hr"), !closes {
                        let text = try scanner.elementText()
                        guard let text, !scanner.isBlank(text) else { continue }
                        if scanner.equals(tag, "time") {
                            guard let parsed = TimestampFormat.parse(scanner.bytes, text) else {
                                throw ActivityImportError(file: fileName, position: .line(scanner.line(at: text.lowerBound)),
                                                          .malformed("the time \"\(scanner.string(text))\" is not an ISO 8601 date"))
                            }
                            time = parsed
                        } else {
                            guard let value = DecimalParser.parse(scanner.bytes, text) else {
                                throw ActivityImportError(file: fileName, position: .line(scanner.line(at: text.lowerBound)),
                                                          .malformed("\"\(scanner.string(text))\" is not a number"))
                            }
                            if scanner.equals(tag, "ele") { elevation = value }
                            else if scanner.equals(tag, "speed") { speed = value }
                            else { heartRate = value }
                        }
                    } else if scanner.equals(tag, "gps"), let value = scanner.attribute("speed", in: attributes) {
                        // Slopes writes gte:gps speed in miles per hour (its −1 "invalid" shows as −2.23694).
                        speed = DecimalParser.parse(scanner.bytes, value).map { $0 / 2.236936 }
                        if !closes { level += 1 }
                    } else if !closes {
                        level += 1
                    }
                case .end:
                    level -= 1
                case .text:
                    break
                }
            }
        }
        try track.add(time: time, lat: lat, lon: lon, elevation: elevation, speed: speed, heartRate: heartRate, at: position)
    }
}

extension XMLScanner.Failure {
    func importError(file: String, scanner: XMLScanner) -> ActivityImportError {
        let line = SourcePosition.line(scanner.line(at: offset))
        if message.contains("cut off") || message.contains("ends inside") || message.contains("not closed") {
            return ActivityImportError(file: file, position: line, .truncated(message))
        }
        return ActivityImportError(file: file, position: line, .malformed(message))
    }
}
