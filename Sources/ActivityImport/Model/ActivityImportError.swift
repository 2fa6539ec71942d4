/// Where in a file a problem was found, in the terms of that file's format.
public enum SourcePosition: Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of a text file.
    case line(Int)
    /// Byte offset in a binary file.
    case byte(Int)
    /// A line inside one entry of an archive.
    case entry(String, line: Int)

    public var description: String {
        switch self {
        case .line(let line): return "line \(line)"
        case .byte(let offset): return "byte \(offset)"
        case .entry(let name, let line): return line > 0 ? "\(name) line \(line)" : name
        }
    }
}

/// Why a recording was refused. Nothing of a refused file is imported.
public struct ActivityImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case empty
        case unrecognizedFormat
        case truncated(String)
        /// FIT header or file CRC, or a zip entry's CRC.
        case checksumMismatch(String)
        case malformed(String)
        case noTrackPoints
        case missingTimestamps
        case timeNotUTC
        case nonMonotonicTime(previous: Double, next: Double)
        case implausibleTime(Double)
        case implausibleDuration(seconds: Double)
        case absurdCoordinate(lat: Double, lon: Double)
        case absurdSpeed(metresPerSecond: Double)
        case tooLarge(bytes: Int, limit: Int)
    }

    public var file: String
    public var position: SourcePosition?
    public var problem: Problem

    public init(file: String, position: SourcePosition? = nil, _ problem: Problem) {
        self.file = file
        self.position = position
        self.problem = problem
    }

    /// A stable snake_case code for JSON output and tests.
    public var code: String {
        switch problem {
        case .empty: return "empty_file"
        case .unrecognizedFormat: return "unrecognized_format"
        case .truncated: return "truncated"
        case .checksumMismatch: return "checksum_mismatch"
        case .malformed: return "malformed"
        case .noTrackPoints: return "no_track_points"
        case .missingTimestamps: return "missing_timestamps"
        case .timeNotUTC: return "time_not_utc"
        case .nonMonotonicTime: return "non_monotonic_time"
        case .implausibleTime: return "implausible_time"
        case .implausibleDuration: return "implausible_duration"
        case .absurdCoordinate: return "absurd_coordinate"
        case .absurdSpeed: return "absurd_speed"
        case .tooLarge: return "too_large"
        }
    }

    public var description: String {
        let place = position.map { "\(file) (\($0))" } ?? file
        return "\(place): \(explanation)"
    }

    /// What was wrong and what to do about it.
    public var explanation: String {
        switch problem {
        case .empty:
            return "the file is empty; export the activity again"
        case .unrecognizedFormat:
            return "not a GPX, TCX, FIT, Slopes or Ski Tracks file; export the day as GPX, FIT or a .slopes file"
        case .truncated(let what):
            return "the file ends early (\(what)); it was cut off while copying or exporting, so export it again"
        case .checksumMismatch(let what):
            return "the file is corrupt (\(what)); export it again from the recording app"
        case .malformed(let what):
            return "the file is malformed: \(what); export it again, or as GPX"
        case .noTrackPoints:
            return "the file holds no track points with a position; export the recorded track, not a route or waypoints"
        case .missingTimestamps:
            return "the track points have no time; Summit needs when each point was recorded, so export a recorded activity"
        case .timeNotUTC:
            return "the times are the device's own clock, not real dates; export the activity from the app that synced it"
        case .nonMonotonicTime(let previous, let next):
            return "time goes backwards (\(TimestampFormat.iso(previous)) then \(TimestampFormat.iso(next))); the file mixes recordings, so export each day on its own"
        case .implausibleTime(let time):
            return "the time \(TimestampFormat.iso(time)) is not plausible for a recording (before 1990 or in the future); check the device clock and export again"
        case .implausibleDuration(let seconds):
            return "the recording spans \(Int(seconds / 3600)) hours, longer than one ski day (48 h at most); export each day on its own"
        case .absurdCoordinate(let lat, let lon):
            return "the position \(lat), \(lon) is not on Earth; the file is corrupt, export it again"
        case .absurdSpeed(let speed):
            return "a speed of \(Int(speed)) m/s is not possible on skis; the file is corrupt or not a ski recording"
        case .tooLarge(let bytes, let limit):
            return "the file is \(bytes) bytes, above the \(limit)-byte limit for one recording; export a single day"
        }
    }
}
