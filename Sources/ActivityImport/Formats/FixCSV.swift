/// The headerless fix tables of Slopes (`GPS.csv`, `RawGPS.csv`) and Ski
/// Tracks (`Nodes.csv`): `time,lat,lon,altitude,course,speed,hAcc,vAcc`.
/// Speed and accuracies of −1 mean "unknown". The time's magnitude tells its
/// epoch: below 978 307 200 it counts from 2001-01-01 (Apple's reference
/// date), below 3·10⁹ it is Unix seconds, above that Unix milliseconds.
enum FixCSV {
    static let appleReferenceDate = 978_307_200.0

    static func read(_ bytes: [UInt8], entry: String, into track: inout TrackAssembler) throws(ActivityImportError) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(ActivityImportError) in
            var line = 0
            var offset = 0
            var fields = [Range<Int>]()
            fields.reserveCapacity(8)
            while offset < buffer.count {
                line += 1
                let lineStart = offset
                while offset < buffer.count, buffer[offset] != 0x0A { offset += 1 }
                var lineEnd = offset
                offset += 1
                if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lineEnd == lineStart { continue }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for k in lineStart..<lineEnd where buffer[k] == 0x2C {
                    fields.append(fieldStart..<k)
                    fieldStart = k + 1
                }
                fields.append(fieldStart..<lineEnd)
                func number(_ index: Int) -> Double? {
                    index < fields.count ? DecimalParser.parse(buffer, fields[index]) : nil
                }
                guard fields.count >= 4, let rawTime = number(0), let lat = number(1), let lon = number(2) else {
                    throw ActivityImportError(file: track.file, position: .entry(entry, line: line),
                                              .malformed("expected time,lat,lon,altitude,… on each line"))
                }
                let time = rawTime < appleReferenceDate ? rawTime + appleReferenceDate : rawTime < 3e9 ? rawTime : rawTime / 1000
                let speed = number(5).flatMap { $0 >= 0 ? $0 : nil }
                let accuracy = number(6).flatMap { $0 >= 0 ? $0 : nil }
                try track.add(time: time, lat: lat, lon: lon, elevation: number(3), speed: speed, accuracy: accuracy, at: line)
            }
        }
    }
}
