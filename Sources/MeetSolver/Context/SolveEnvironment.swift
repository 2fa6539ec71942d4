import CivilCalendar
import Digest
import Foundation
import MountainGraph

/// What both skiers' contexts share in one solve: the graph as it is now,
/// the bucketed solve time, the weather over time, the resort's clock and
/// position, and the lift queues and hours.
final class SolveEnvironment: Sendable {
    let graph: RoutingGraph
    /// The solve instant floored to 15 minutes (Unix seconds); nil for a
    /// timeless preview (no lift hours, sun, demand curve or forecast).
    let solveTime: Double?
    let timeline: ConditionsTimeline
    let clock: ResortClock
    let location: Coordinate
    /// Per edge index: the boarding queue of queue-entry lift edges.
    let queues: [LiftQueue?]
    /// Per edge index: the boarding window of lift edges (local hours).
    let boardingWindows: [(open: Double, close: Double)?]
    /// The weather at the solve time (or the current snapshot without one).
    let weatherAtSolve: QuantizedWeather
    /// Skier-independent part of every context signature.
    let signature: String
    /// The range of the lift-ride wind factor, for its fall limit.
    let rideFactorRange: Double
    /// The sun's constants for the days a solve can span (the day before
    /// the solve to three days after), and the observer's latitude.
    let solarDays: [SolarDayAtSite]
    let sinLatitude: Double
    let cosLatitude: Double
    /// The resort's longitude as seconds of mean solar time ahead of UTC.
    let solarTimeShift: Double

    static let bucketSeconds = 900.0

    init(graph: RoutingGraph, solveTime: Double?, conditions: ResortConditions, dataset: MeetDataset, status: MountainStatus?) {
        self.graph = graph
        self.solveTime = solveTime
        timeline = ConditionsTimeline(conditions)
        location = dataset.location
        clock = ResortClock.resolve(feedOffsetSeconds: conditions.utcOffsetSeconds, timeZoneIdentifier: dataset.timeZoneIdentifier,
                                    longitude: dataset.location.lon, at: solveTime ?? 0)
        weatherAtSolve = timeline.quantized(at: solveTime)
        rideFactorRange = timeline.rideFactor.maximum - timeline.rideFactor.minimum
        let firstDay = CivilDate.days(of: (solveTime ?? 0) + dataset.location.lon / 15 * 3600) - 1
        let sinLatitude = sin(dataset.location.lat * .pi / 180), cosLatitude = cos(dataset.location.lat * .pi / 180)
        solarDays = (0..<5).map {
            SolarDayAtSite(SolarDay(days: firstDay + $0), sinLatitude: sinLatitude, cosLatitude: cosLatitude, longitude: dataset.location.lon)
        }
        self.sinLatitude = sinLatitude
        self.cosLatitude = cosLatitude
        solarTimeShift = dataset.location.lon / 15 * 3600

        // Labels only move forward from the solve: its day is the first a queue needs.
        let solveDay = solveTime.map { [clock] in CivilDate.days(of: clock.local($0)) }
        var queues: [LiftQueue?] = Array(repeating: nil, count: graph.edgeCount)
        var windows: [(open: Double, close: Double)?] = Array(repeating: nil, count: graph.edgeCount)
        for (index, edge) in graph.edges.enumerated() where edge.kind == .lift {
            let operation = graph.identityKeys[index].flatMap { dataset.liftOperations.byIdentityKey[$0] }
            windows[index] = (operation ?? LiftOperation()).boardingWindow
            if edge.queueEntry {
                queues[index] = LiftQueue(
                    operation: operation,
                    heuristicWeekday: QueueDemand.heuristicBaseSeconds(type: edge.liftType, capacity: edge.liftCapacity, weekend: false),
                    heuristicWeekend: QueueDemand.heuristicBaseSeconds(type: edge.liftType, capacity: edge.liftCapacity, weekend: true),
                    liveWaitMinutes: edge.waitTimeMinutes, observedAt: status?.observedAt, clock: clock, firstDay: solveDay)
            }
        }
        self.queues = queues
        boardingWindows = windows

        let w = weatherAtSolve
        var parts = [String(format: "lat=%.3f lon=%.3f T=%.1f E=%.0f W=%.1f V=%.1f S=%.0f C=%d",
                            location.lat, location.lon, w.temperature, w.stationElevation ?? -1, w.wind,
                            w.visibility, w.freshSnow, w.cloudCover)]
        parts.append("t=\(solveTime.map(Self.iso8601) ?? "timeless")")
        parts.append("utc=\(clock.utcOffsetSeconds)")
        parts.append("authoritative=\(conditions.isAuthoritative)")
        parts.append("hours=\(SHA256.hex(dataset.liftOperations.signatureSource).prefix(16))")
        parts.append("hourly=\(SHA256.hex(timeline.hourlyDigestSource).prefix(16))")
        parts.append("status=\(status.map { "\($0.observedAt)/\($0.expiresAt)" } ?? "none")")
        signature = parts.joined(separator: " ")
    }

    /// The sun at an instant, from the day constants worked out in advance.
    func sun(at instant: Double) -> SolarPosition {
        let days = Int(SolarPosition.wholeDays(instant + solarTimeShift))
        let offset = days - solarDays[0].day.days
        guard solarDays.indices.contains(offset) else {
            return SolarPosition(instant: instant, day: SolarDay(days: days), sinLatitude: sinLatitude, cosLatitude: cosLatitude,
                                 longitude: location.lon)
        }
        return SolarPosition(instant: instant, site: solarDays[offset], sinLatitude: sinLatitude, cosLatitude: cosLatitude)
    }

    static func bucket(_ instant: Double) -> Double {
        (instant / bucketSeconds).rounded(.down) * bucketSeconds
    }

    static func iso8601(_ instant: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: instant))
    }
}
