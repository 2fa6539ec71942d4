/// What the `Accept` header asks a REST answer to be, as PostgREST negotiates it:
/// a JSON array (the default), one object, CSV, or the plan of the query.
enum ResponseMedia: Sendable, Equatable {
    case array(stripNulls: Bool)
    case object(stripNulls: Bool)
    case csv
    /// `application/vnd.pgrst.plan[+json|+text]; options=analyze|verbose|…`.
    case plan(json: Bool, options: [String])

    static let planOptions = ["analyze", "verbose", "settings", "buffers", "wal"]

    /// The first acceptable type in `accept` (nil: no header, JSON).
    static func negotiate(_ accept: String?) throws(Refusal) -> ResponseMedia {
        guard let accept, !accept.trimmingCharacters(in: .whitespaces).isEmpty else { return .array(stripNulls: false) }
        for entry in accept.split(separator: ",") {
            let fields = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let media = fields[0].lowercased()
            var parameters: [String: String] = [:]
            for field in fields.dropFirst() {
                let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 { parameters[pair[0].lowercased()] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
            let stripNulls = parameters["nulls"] == "stripped"
            switch media {
            case "application/json", "*/*", "application/*", "application/vnd.pgrst.array+json", "application/vnd.pgrst.array":
                return .array(stripNulls: stripNulls)
            case "application/vnd.pgrst.object+json", "application/vnd.pgrst.object":
                return .object(stripNulls: stripNulls)
            case "text/csv":
                return .csv
            case "application/vnd.pgrst.plan", "application/vnd.pgrst.plan+text", "application/vnd.pgrst.plan+json":
                let options = (parameters["options"] ?? "").split(separator: "|").map { $0.lowercased() }
                guard options.allSatisfy(planOptions.contains) else {
                    throw PostgRESTError.refusal(406, "PGRST107", "None of these media types are available: \(accept.prefix(200))",
                                                 hint: "plan options are \(planOptions.joined(separator: "|"))")
                }
                return .plan(json: media.hasSuffix("+json"), options: options)
            default:
                continue
            }
        }
        throw PostgRESTError.refusal(406, "PGRST107", "None of these media types are available: \(accept.prefix(200))",
                                     hint: "Summit answers application/json, application/vnd.pgrst.object+json, text/csv and application/vnd.pgrst.plan")
    }

    var stripNulls: Bool {
        switch self {
        case .array(let strip), .object(let strip): strip
        default: false
        }
    }

    var isSingle: Bool { if case .object = self { true } else { false } }

    /// How a read's rows become its body for this media type.
    var body: ReadStatement.Body { self == .csv ? .csv : .array(stripNulls: stripNulls) }

    /// `explain (format …, analyze, …) ` before a statement.
    var explainPrefix: String? {
        guard case .plan(let json, let options) = self else { return nil }
        return "explain (" + ([json ? "format json" : "format text"] + options).joined(separator: ", ") + ") "
    }

    var contentType: String {
        switch self {
        case .array: "application/json; charset=utf-8"
        case .object: "application/vnd.pgrst.object+json; charset=utf-8"
        case .csv: "text/csv; charset=utf-8"
        case .plan(let json, _): json ? "application/vnd.pgrst.plan+json; charset=utf-8" : "application/vnd.pgrst.plan+text; charset=utf-8"
        }
    }
}

import Foundation
