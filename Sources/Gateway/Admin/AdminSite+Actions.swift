import Foundation
import Postgres

/// What the forms do: each one existing moderation RPC, called as the signed-in
/// admin (so its caller check applies and the log names them), then back to the page
/// the form was on with a notice.
extension AdminSite {
    enum Target: String {
        case grid, moment
    }

    /// One `social.admin_*` call as `admin`; its JSON answer. A refusal becomes a page
    /// saying what the RPC said (the transaction rolled back: nothing changed).
    func rpc(_ query: PostgresQuery, as admin: Admin) async throws(Refusal) -> Any? {
        do {
            let text = try await context.query(query, as: admin.caller).first?.decode(String?.self, at: 0)
            return text.flatMap { JSONText.parse($0) }
        } catch let error as PostgresError where error.code == .raiseException {
            let status = switch error.message {
            case "not_found": 404
            case "not_allowed": 403
            default: 400
            }
            // The RPCs' hints speak to callers of the SQL; where one names a parameter, say it in the page's words.
            let reason = error.message == "until_invalid" ? "A suspension must end in the future (leave Until empty: until lifted)."
                : error.hint ?? error.message
            throw Refusal(Self.errorPage(status, "Not done", reason + " Nothing was changed.", admin: admin))
        } catch {
            throw Refusal(Self.errorPage(503, "Not done", "The database did not answer, so nothing was changed: try again in a moment.",
                                         admin: admin))
        }
    }

    func hide(_ target: Target, _ id: UUID, undo: Bool, form: AdminForm, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let report = try Self.optionalID(form["report"], "report", admin: admin)
        let note = form.text("note") ?? ""
        let query: PostgresQuery = switch (target, undo) {
        case (.grid, false): "select social.admin_hide_grid(p_grid_id => \(id), p_report_id => \(report), p_note => \(note))::text"
        case (.grid, true): "select social.admin_unhide_grid(p_grid_id => \(id), p_report_id => \(report), p_note => \(note))::text"
        case (.moment, false): "select social.admin_hide_moment(p_moment_id => \(id), p_report_id => \(report), p_note => \(note))::text"
        case (.moment, true): "select social.admin_unhide_moment(p_moment_id => \(id), p_report_id => \(report), p_note => \(note))::text"
        }
        _ = try await rpc(query, as: admin)
        let fallback = report.map { "/admin/reports/\($0.uuidString.lowercased())" } ?? "/admin/log"
        return Self.redirect(Self.back(form, fallback) + "?done=\(undo ? "unhid" : "hid")-\(target.rawValue)")
    }

    func suspend(person: UUID, lift: Bool, form: AdminForm, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let note = form.text("note") ?? ""
        if lift {
            _ = try await rpc("select social.admin_lift_suspension(p_user_id => \(person), p_note => \(note))::text", as: admin)
        } else {
            let until = try Self.endOfDay(form.text("until"), admin: admin)
            _ = try await rpc("""
                select social.admin_suspend_sharing(p_user_id => \(person), p_until => \(until)::timestamptz, p_note => \(note))::text
                """, as: admin)
        }
        return Self.redirect(Self.back(form, "/admin/people/\(person.uuidString.lowercased())") + "?done=\(lift ? "lifted" : "suspended")")
    }

    func dismiss(report: UUID, form: AdminForm, admin: Admin) async throws(Refusal) -> HTTPResponse {
        _ = try await rpc("select social.admin_dismiss_report(p_report_id => \(report), p_note => \(form.text("note") ?? ""))::text", as: admin)
        return Self.redirect(Self.back(form, "/admin/reports/\(report.uuidString.lowercased())") + "?done=dismissed")
    }

    /// The page the form came from, if it is one of this site's.
    static func back(_ form: AdminForm, _ fallback: String) -> String {
        form["back"].flatMap { isSitePath(Substring($0)) ? $0 : nil } ?? fallback
    }

    static func optionalID(_ text: String?, _ what: String, admin: Admin) throws(Refusal) -> UUID? {
        guard let text, !text.isEmpty else { return nil }
        guard let id = UUID(uuidString: text) else {
            throw Refusal(errorPage(400, "Not done", "\(what) must be an id, not \(text): use the buttons on the report's page.", admin: admin))
        }
        return id
    }

    /// A suspension's end: the end of the day `date` (YYYY-MM-DD) in UTC, or nil for "until lifted".
    static func endOfDay(_ date: String?, admin: Admin) throws(Refusal) -> String? {
        guard let date else { return nil }
        guard date.utf8.count == 10, let day = Formats.day.date(from: date) else {
            throw Refusal(errorPage(400, "Not done", "Until must be a date like 2026-12-31 (or empty: until lifted). Nothing was changed.",
                                    admin: admin))
        }
        return Formats.instant.string(from: day.addingTimeInterval(86_400))
    }
}
