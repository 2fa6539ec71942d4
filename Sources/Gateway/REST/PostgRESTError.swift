import Foundation
import Postgres

/// Errors in PostgREST's shape — `{"code", "details", "hint", "message"}` — with its
/// statuses, so the REST clients raise what they would raise against the hosted platform.
enum PostgRESTError {
    static func response(_ status: Int, code: String, message: String, details: String? = nil, hint: String? = nil) -> HTTPResponse {
        var response = HTTPResponse.json(status, object: [
            "code": code,
            "message": message,
            "details": details.map { $0 as Any } ?? NSNull(),
            "hint": hint.map { $0 as Any } ?? NSNull(),
        ] as [String: Any])
        // The database is away for a moment (a restart, a failover): say when to come back.
        if status == 503 { response.headers.set("retry-after", "1") }
        return response
    }

    /// A request PostgREST itself would refuse (PGRST…).
    static func refusal(_ status: Int, _ code: String, _ message: String, hint: String? = nil, details: String? = nil) -> Refusal {
        Refusal(response(status, code: code, message: message, details: details, hint: hint))
    }

    /// A query string Summit cannot read.
    static func parse(_ message: String, hint: String? = nil) -> Refusal {
        refusal(400, "PGRST100", message, hint: hint)
    }

    /// A PostgreSQL error with its SQLSTATE, mapped to PostgREST's status for it.
    static func from(_ error: any Error, role: String) -> HTTPResponse {
        guard let error = error as? PostgresError else {
            return response(500, code: "PGRST000", message: "the gateway could not run the request: \(error)")
        }
        // A lost connection, or a server shutting down or not yet accepting connections (a failover's moments).
        if error.isServerUnavailable {
            return response(503, code: "PGRST001", message: "Database client error: the database is not reachable (it may be failing over). Retry shortly.")
        }
        let code = error.code.rawValue
        return response(status(for: code, role: role), code: code, message: error.message, details: error.detail, hint: error.hint)
    }

    static func status(for code: String, role: String) -> Int {
        switch code {
        case "23503", "23505": return 409
        case "25006": return 405
        case "42883", "42P01": return 404
        case "42501": return role == "anon" ? 401 : 403
        case "P0001": return 400
        case "57014": return 504
        default: break
        }
        switch code.prefix(2) {
        case "08", "53": return 503
        case "0L", "0P", "28": return 403
        case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
        default: return 400
        }
    }
}
