import Foundation
import MeetSolver
import MountainGraph

/// What `summit meet plan` prints: the ranked meeting points with both routes
/// step by step, or the strict failure and what to do.
struct MeetPlanPrintout: Encodable {
    struct Route: Encodable {
        var skier: String
        var origin: String
        var etaSeconds: Double
        var etaStdSeconds: Double
        var edgeIds: [String]
        var steps: [RouteStep]

        enum CodingKeys: String, CodingKey {
            case skier, origin, steps
            case etaSeconds = "eta_seconds"
            case etaStdSeconds = "eta_std_seconds"
            case edgeIds = "edge_ids"
        }
    }

    struct Option: Encodable {
        var rank: Int
        var rendezvousPointId: String
        var nodeId: String
        var name: String
        var kind: String
        var score: Double
        var arrivalSeconds: Double
        var spreadSeconds: Double
        var uncertaintySeconds: Double
        var alpha: Double
        var harshWeather: Bool
        var routes: [Route]

        enum CodingKeys: String, CodingKey {
            case rank, name, kind, score, alpha, routes
            case rendezvousPointId = "rendezvous_point_id"
            case nodeId = "node_id"
            case arrivalSeconds = "arrival_seconds"
            case spreadSeconds = "spread_seconds"
            case uncertaintySeconds = "uncertainty_seconds"
            case harshWeather = "harsh_weather"
        }
    }

    struct Failure: Encodable {
        var code: String
        var explanation: String
    }

    var resortId: String
    var datasetVersion: String
    var solveAttempt: String?
    var solveTime: String?
    /// Milliseconds the solver's call took (to the microsecond); nil when it was not called.
    var solveMs: Double?
    var plannedAt: String
    var status: String
    var options: [Option]
    var failure: Failure?

    enum CodingKeys: String, CodingKey {
        case options, failure, status
        case resortId = "resort_id"
        case datasetVersion = "dataset_version"
        case solveAttempt = "solve_attempt"
        case solveTime = "solve_time"
        case solveMs = "solve_ms"
        case plannedAt = "planned_at"
    }

    init(world: MeetWorld, solver: MeetSolver, names: [String: String], outcome: Result<MeetingResult, MeetFailure>,
         solveDuration: Duration?) {
        resortId = world.identity.resortID
        solveMs = solveDuration.map { duration in
            let (seconds, attoseconds) = duration.components
            return ((Double(seconds) * 1_000 + Double(attoseconds) / 1e15) * 1_000).rounded() / 1_000
        }
        datasetVersion = world.identity.datasetVersion
        plannedAt = Self.iso(world.now)
        status = world.status.map { "observed \(Self.iso($0.observedAt)), expires \(Self.iso($0.expiresAt)) (\($0.source))" } ?? "none"
        switch outcome {
        case let .success(result):
            solveAttempt = result.solveAttempt.rawValue
            solveTime = result.solveTime.map(Self.iso)
            options = ([result.primary] + result.alternates).enumerated().map { index, option in
                Option(rank: index + 1, rendezvousPointId: option.rendezvousPointID, nodeId: option.nodeID, name: option.displayName,
                       kind: option.kind, score: option.score, arrivalSeconds: option.arrival, spreadSeconds: option.spread,
                       uncertaintySeconds: option.uncertainty, alpha: option.alpha, harshWeather: option.harshWeather,
                       routes: [option.routeA, option.routeB].map { route in
                           Route(skier: names[route.skierID] ?? route.skierID, origin: route.origin.descriptor,
                                 etaSeconds: route.eta, etaStdSeconds: route.etaStd, edgeIds: route.edgeIDs, steps: solver.steps(of: route))
                       })
            }
        case let .failure(failure):
            options = []
            self.failure = Failure(code: failure.code, explanation: failure.explanation)
        }
    }

    /// The plan as lines for a person.
    var text: String {
        var lines = ["\(resortId) \(datasetVersion)", "planned at \(plannedAt); status \(status)"]
        if let solveMs { lines.append("solved in \(String(format: "%.1f", solveMs)) ms") }
        if let failure {
            lines.append("no meeting point: \(failure.code) — \(failure.explanation)")
            return lines.joined(separator: "\n")
        }
        if solveAttempt == "nonCanonicalDataset" { lines.append("PREVIEW ONLY (not a canonical dataset): never a live meet") }
        for option in options {
            lines.append("")
            lines.append("\(option.rank). \(option.name) [\(option.kind) \(option.rendezvousPointId)]: both there after "
                         + "\(Self.duration(option.arrivalSeconds)), one waits \(Self.duration(option.spreadSeconds)) "
                         + "(score \(Int(option.score.rounded())) s\(option.harshWeather ? ", harsh weather" : ""))")
            for route in option.routes {
                lines.append("   \(route.skier): \(Self.duration(route.etaSeconds)) ± \(Self.duration(route.etaStdSeconds)) from \(route.origin)")
                if route.steps.isEmpty { lines.append("      already there") }
                for step in route.steps {
                    let difficulty = step.difficulty.map { " (\($0))" } ?? ""
                    lines.append("      \(step.kind == "lift" ? "ride" : step.kind == "run" ? "ski " : "walk") \(step.name)\(difficulty)"
                                 + "  \(Self.duration(step.time)) ± \(Self.duration(step.std))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func iso(_ instant: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: instant))
    }

    /// `12 min 05 s`, `48 s`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min \(String(format: "%02d", total % 60)) s" }
        return "\(total / 3600) h \(String(format: "%02d", (total % 3600) / 60)) min"
    }
}
