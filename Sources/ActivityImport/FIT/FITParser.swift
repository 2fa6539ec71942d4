/// Garmin FIT: file header (and its CRC), definition and data messages, local
/// message types, compressed-timestamp headers, developer fields (skipped by
/// size), chained files, and the file CRC. Reads `file_id`, `sport`, `session`
/// and `record` messages, scaled as the FIT profile says:
/// position in semicircles (·180/2³¹), altitude /5 −500 m (enhanced field 78
/// preferred), speed /1000 m/s (enhanced field 73 preferred), time in seconds
/// since 1989-12-31T00:00Z. Field sizes that are not a multiple of the base
/// type (some devices write them) are read when they hold at least one value.
enum FITParser {
    static let fitEpoch = 631_065_600.0
    /// Timestamps below this are the device's own clock, not UTC (FIT `date_time` rule).
    static let systemTimeLimit: UInt64 = 0x1000_0000

    enum Message: UInt16 {
        case fileID = 0, sport = 12, session = 18, record = 20
    }

    static func looksLikeFIT(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 12 && bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, fileName: String, hash: String, now: Double) throws(ActivityImportError) -> ParsedActivity {
        guard !bytes.isEmpty else { throw ActivityImportError(file: fileName, .empty) }
        var state = DecodeState(track: TrackAssembler(file: fileName, now: now) { .byte($0) })
        var start = 0
        var part = 1
        while start < bytes.count {
            let end = try checkFile(bytes, at: start, part: part, fileName: fileName)
            try decodeMessages(bytes, from: start + Int(bytes[start]), to: end - 2, state: &state, fileName: fileName)
            start = end
            part += 1
        }
        let segments: [[TrackPoint]], dropped: Int
        do {
            (segments, dropped) = try state.track.finish()
        } catch where error.problem == .noTrackPoints && state.sawSystemTime {
            // Positions were there, timed only by the device's own clock.
            throw ActivityImportError(file: fileName, .timeNotUTC)
        }
        var device: String?
        if let manufacturer = state.manufacturer {
            device = manufacturerName(manufacturer) + (state.product.map { " product \($0)" } ?? "")
        }
        return ParsedActivity(format: .fit, fileName: fileName, sourceFileHash: hash, sport: state.sport,
                              device: device, segments: segments, droppedFixes: dropped)
    }

    /// Validates the header and CRCs of the FIT file starting at `start`; returns where it ends.
    private static func checkFile(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, part: Int, fileName: String) throws(ActivityImportError) -> Int {
        let which = part == 1 ? "the FIT header" : "the header of chained FIT file \(part)"
        guard start + 12 <= bytes.count else {
            throw ActivityImportError(file: fileName, position: .byte(start), .truncated("\(which) is cut off"))
        }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14,
              bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54 else {
            throw ActivityImportError(file: fileName, position: .byte(start), .malformed("\(which) is not valid (no .FIT signature)"))
        }
        guard start + headerSize <= bytes.count else {
            throw ActivityImportError(file: fileName, position: .byte(start), .truncated("\(which) is cut off"))
        }
        if headerSize == 14 {
            let stored = UInt16(bytes[start + 12]) | UInt16(bytes[start + 13]) << 8
            if stored != 0, stored != FITCRC.checksum(bytes, start..<(start + 12)) {
                throw ActivityImportError(file: fileName, position: .byte(start + 12), .checksumMismatch("\(which) CRC does not match"))
            }
        }
        let dataSize = Int(UInt32(bytes[start + 4]) | UInt32(bytes[start + 5]) << 8 | UInt32(bytes[start + 6]) << 16 | UInt32(bytes[start + 7]) << 24)
        let end = start + headerSize + dataSize + 2
        guard end <= bytes.count else {
            throw ActivityImportError(file: fileName, position: .byte(bytes.count),
                                      .truncated("the header promises \(dataSize) bytes of data but the file ends \(end - bytes.count) bytes short"))
        }
        let stored = UInt16(bytes[end - 2]) | UInt16(bytes[end - 1]) << 8
        let computed = FITCRC.checksum(bytes, start..<(end - 2))
        guard stored == computed else {
            throw ActivityImportError(file: fileName, position: .byte(end - 2),
                                      .checksumMismatch("\(part == 1 ? "the file" : "chained FIT file \(part)") CRC is \(hex(stored)), the data gives \(hex(computed))"))
        }
        return end
    }

    struct DecodeState {
        var track: TrackAssembler
        var definitions: [FITMessageDefinition?] = Array(repeating: nil, count: 16)
        var lastTimestamp: UInt64?
        var sport: DeclaredSport = .unknown
        var manufacturer: UInt64?
        var product: UInt64?
        var sawSystemTime = false
    }

    private static func decodeMessages(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                       state: inout DecodeState, fileName: String) throws(ActivityImportError) {
        state.definitions = Array(repeating: nil, count: 16)
        var offset = start
        while offset < end {
            let recordStart = offset
            let header = bytes[offset]
            offset += 1
            if header & 0x80 == 0, header & 0x40 != 0 {
                // Definition message.
                guard offset + 5 <= end else {
                    throw ActivityImportError(file: fileName, position: .byte(recordStart), .malformed("a definition message runs past the data"))
                }
                let bigEndian = bytes[offset + 1] == 1
                let global = bigEndian ? UInt16(bytes[offset + 2]) << 8 | UInt16(bytes[offset + 3])
                                       : UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
                let fieldCount = Int(bytes[offset + 4])
                offset += 5
                guard offset + fieldCount * 3 <= end else {
                    throw ActivityImportError(file: fileName, position: .byte(recordStart), .malformed("a definition message runs past the data"))
                }
                var fields: [FITMessageDefinition.Field] = []
                fields.reserveCapacity(fieldCount)
                var total = 0
                for _ in 0..<fieldCount {
                    let field = FITMessageDefinition.Field(number: bytes[offset], size: Int(bytes[offset + 1]), baseType: bytes[offset + 2])
                    total += field.size
                    fields.append(field)
                    offset += 3
                }
                var developerBytes = 0
                if header & 0x20 != 0 {
                    guard offset < end else {
                        throw ActivityImportError(file: fileName, position: .byte(recordStart), .malformed("a definition message runs past the data"))
                    }
                    let count = Int(bytes[offset])
                    offset += 1
                    guard offset + count * 3 <= end else {
                        throw ActivityImportError(file: fileName, position: .byte(recordStart), .malformed("a definition message runs past the data"))
                    }
                    for _ in 0..<count {
                        developerBytes += Int(bytes[offset + 1])
                        offset += 3
                    }
                }
                state.definitions[Int(header & 0x0F)] = FITMessageDefinition(
                    globalNumber: global, bigEndian: bigEndian, fields: fields,
                    developerBytes: developerBytes, totalSize: total + developerBytes)
                continue
            }
            // Data message, normal or with a compressed timestamp.
            let compressed = header & 0x80 != 0
            let local = compressed ? Int((header >> 5) & 0x03) : Int(header & 0x0F)
            guard let definition = state.definitions[local] else {
                throw ActivityImportError(file: fileName, position: .byte(recordStart),
                                          .malformed("a data message uses local message type \(local), which no definition declared"))
            }
            guard offset + definition.totalSize <= end else {
                throw ActivityImportError(file: fileName, position: .byte(recordStart), .malformed("a data message runs past the data"))
            }
            var compressedTime: UInt64?
            if compressed, let last = state.lastTimestamp {
                let timeOffset = UInt64(header & 0x1F)
                var time = (last & ~0x1F) + timeOffset
                if timeOffset < last & 0x1F { time += 0x20 }
                compressedTime = time
                state.lastTimestamp = time
            }
            try decodeData(bytes, at: offset, definition: definition, compressedTime: compressedTime,
                           recordStart: recordStart, state: &state)
            offset += definition.totalSize
        }
    }

    private static func decodeData(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, definition: FITMessageDefinition,
                                   compressedTime: UInt64?, recordStart: Int, state: inout DecodeState) throws(ActivityImportError) {
        var timestamp = compressedTime
        var lat: Int64?, lon: Int64?
        var altitude: UInt64?, enhancedAltitude: UInt64?
        var speed: UInt64?, enhancedSpeed: UInt64?
        var heartRate: UInt64?
        var sportValue: UInt64?
        var offset = start
        for field in definition.fields {
            defer { offset += field.size }
            guard let typeSize = FITBaseType.size(field.baseType), field.size >= typeSize, typeSize <= 8 else { continue }
            var raw: UInt64 = 0
            if definition.bigEndian {
                for k in 0..<typeSize { raw = raw << 8 | UInt64(bytes[offset + k]) }
            } else {
                for k in (0..<typeSize).reversed() { raw = raw << 8 | UInt64(bytes[offset + k]) }
            }
            if FITBaseType.isInvalid(raw, baseType: field.baseType, size: typeSize) { continue }
            if field.number == 253, typeSize == 4 {
                timestamp = raw
                continue
            }
            switch (definition.globalNumber, field.number) {
            case (Message.record.rawValue, 0) where typeSize == 4: lat = Int64(Int32(truncatingIfNeeded: raw))
            case (Message.record.rawValue, 1) where typeSize == 4: lon = Int64(Int32(truncatingIfNeeded: raw))
            case (Message.record.rawValue, 2): altitude = raw
            case (Message.record.rawValue, 78): enhancedAltitude = raw
            case (Message.record.rawValue, 6): speed = raw
            case (Message.record.rawValue, 73): enhancedSpeed = raw
            case (Message.record.rawValue, 3): heartRate = raw
            case (Message.sport.rawValue, 0), (Message.session.rawValue, 5): sportValue = raw
            case (Message.fileID.rawValue, 1): state.manufacturer = raw
            case (Message.fileID.rawValue, 2): state.product = raw
            default: break
            }
        }
        if let timestamp, compressedTime == nil { state.lastTimestamp = timestamp }
        switch definition.globalNumber {
        case Message.record.rawValue:
            guard let lat, let lon else { return }
            var time: Double?
            if let timestamp {
                if timestamp < systemTimeLimit { state.sawSystemTime = true; return }
                time = fitEpoch + Double(timestamp)
            }
            let elevation = enhancedAltitude.map { Double($0) / 5 - 500 } ?? altitude.map { Double($0) / 5 - 500 }
            let metresPerSecond = enhancedSpeed.map { Double($0) / 1000 } ?? speed.map { Double($0) / 1000 }
            try state.track.add(time: time, lat: Double(lat) * (180.0 / 2_147_483_648.0), lon: Double(lon) * (180.0 / 2_147_483_648.0),
                                elevation: elevation, speed: metresPerSecond, heartRate: heartRate.map(Double.init), at: recordStart)
        case Message.sport.rawValue, Message.session.rawValue:
            // Transitions between the legs of a multisport file say nothing about the sport.
            guard let sportValue, sportValue != 3 else { return }
            let declared = sportDeclaration(sportValue)
            // A multisport file: any downhill leg makes it a ski day; otherwise the first named sport.
            if declared == .downhill || state.sport == .unknown { state.sport = declared }
        default:
            break
        }
    }

    static func sportDeclaration(_ value: UInt64) -> DeclaredSport {
        switch value {
        case 13, 14: return .downhill
        case 0: return .unknown
        default:
            let names: [UInt64: String] = [
                1: "running", 2: "cycling", 3: "transition", 4: "fitness equipment", 5: "swimming", 10: "training",
                11: "walking", 12: "cross-country skiing", 15: "rowing", 16: "mountaineering", 17: "hiking",
                18: "multisport", 19: "paddling", 37: "stand-up paddleboarding", 41: "kayaking", 43: "snowshoeing",
            ]
            return .other(names[value] ?? "FIT sport \(value)")
        }
    }

    static func manufacturerName(_ id: UInt64) -> String {
        let names: [UInt64: String] = [1: "Garmin", 23: "Suunto", 32: "Wahoo Fitness", 255: "development", 294: "Coros"]
        return names[id] ?? "FIT manufacturer \(id)"
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
