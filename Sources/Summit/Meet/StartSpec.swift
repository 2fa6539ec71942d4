import Foundation
import MeetSolver

/// Where a command says a skier starts: `n123` (a node), `t45@0.25` (25 %
/// along a directed edge), `LAT,LON` (a fix taken now, resolved onto the
/// nearest open edge), or nothing (their latest shared live position).
enum StartSpec: Sendable, Equatable {
    case given(RoutingOrigin)
    case livePosition

    static func parse(_ text: String?, option: String, now: Double, resortID: String, accuracy: Double?) throws -> StartSpec {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .livePosition }
        if text.range(of: "^n[0-9]+$", options: .regularExpression) != nil { return .given(.node(text)) }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        if parts.count == 2, String(parts[0]).range(of: "^[tlc][0-9]+(_s[0-9]+)?(_r)?$", options: .regularExpression) != nil,
           let fraction = Double(parts[1]), fraction >= 0, fraction <= 1 {
            return .given(.edge(String(parts[0]), fraction: fraction))
        }
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        if numbers.count == 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 {
            return .given(.fix(GPSFix(lat: numbers[0], lon: numbers[1], accuracyMeters: accuracy ?? 10, capturedAt: now, resortID: resortID)))
        }
        throw CLIError("\(option) \(text) is not a start",
                       fix: "give a node (n123), an edge and how far along it (t45@0.25), or a position LAT,LON")
    }
}
