import Foundation

/// The `Prefer` header (RFC 7240) as PostgREST reads it.
struct Preferences: Sendable {
    enum Return: String { case minimal, representation, headersOnly = "headers-only" }
    enum Resolution: String { case mergeDuplicates = "merge-duplicates", ignoreDuplicates = "ignore-duplicates" }

    /// How `Content-Range` counts all matching rows: `exact` counts them; `planned` takes the
    /// planner's estimate; `estimated` is exact here (PostgREST switches to the estimate only
    /// past `db-max-rows`, which Summit does not set).
    enum Count: String { case exact, planned, estimated }

    var returning: Return?
    var count: Count?
    var resolution: Resolution?
    /// `missing=default`: keys absent from a row take the column's default, not NULL.
    var missingDefault = false

    init(_ headers: HTTPHeaders) {
        for token in headers.tokens("prefer") {
            let parts = token.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "return": returning = Return(rawValue: parts[1])
            case "count": count = Count(rawValue: parts[1])
            case "resolution": resolution = Resolution(rawValue: parts[1])
            case "missing": missingDefault = parts[1] == "default"
            default: break  // tx, timezone, handling, params: not used by the apps
            }
        }
    }

    var wantsCount: Bool { count != nil }
    var exactCount: Bool { count == .exact || count == .estimated }
}
