import Foundation

/// The moderation log: every action, newest first, who took it (an admin, the
/// automatic rule, or the service role from `summit admin`), on whom and on what.
extension AdminSite {
    func logPage(_ request: HTTPRequest, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let before = try Self.timestampParameter(request, "before", admin: admin)
        let actions = try await rpc("""
            select social.admin_moderation_log(p_limit => \(Self.pageSize), p_before => \(before)::timestamptz)::text
            """, as: admin) as? [[String: Any]] ?? []
        let older: HTMLText = actions.count == Self.pageSize ? (actions.last?["created_at"] as? String).map {
            "<p><a class=\"more\" href=\"/admin/log?before=\(URLQuery.percentEncode($0))\">Older actions</a></p>"
        } ?? .empty : .empty
        return Self.page(title: "Moderation log", admin: admin, section: .log, "\(Self.actionTable(actions))\(older)")
    }

    /// Actions as a table; `subject` false leaves out whom they count against (a person's own page).
    static func actionTable(_ actions: [[String: Any]], subject: Bool = true) -> HTMLText {
        guard !actions.isEmpty else { return "<p class=\"empty\">No actions yet.</p>" }
        let rows = actions.map { action -> HTMLText in
            let subjectCell: HTMLText = subject ? "<td>\(person(action["subject_user_id"], action["subject_username"]))</td>" : .empty
            let reversed: HTMLText = action["reversed_at"] is String ? "<span class=\"badge\">undone \(time(action["reversed_at"]))</span>" : .empty
            return """
                <tr\(action["automatic"] as? Bool == true ? HTMLText(" class=\"automatic\"") : .empty)>
                <td>\(time(action["created_at"]))</td>
                <td>\(actionLabel(action["action"] as? String ?? "")) \(reversed)</td>
                <td>\(actor(action))</td>
                \(subjectCell)<td>\(actionObject(action))</td>
                <td class="note">\(action["note"] as? String ?? "")</td>
                </tr>
                """
        }
        let subjectHead: HTMLText = subject ? "<th>About</th>" : .empty
        return """
            <table class="log">
            <thead><tr><th>When</th><th>Action</th><th>By</th>\(subjectHead)<th>On</th><th>Note</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table>
            """
    }

    static func actionLabel(_ action: String) -> String {
        switch action {
        case "hide_grid": "Hid grid"
        case "unhide_grid": "Unhid grid"
        case "hide_moment": "Hid moment"
        case "unhide_moment": "Unhid moment"
        case "suspend_sharing": "Suspended sharing"
        case "lift_suspension": "Lifted suspension"
        case "dismiss_report": "Dismissed report"
        default: action
        }
    }

    /// Who acted: an admin, the automatic rule, or the service role (`summit admin` without --as).
    static func actor(_ action: [String: Any]) -> HTMLText {
        if action["automatic"] as? Bool == true { return "<span class=\"badge rule\">automatic rule</span>" }
        guard action["admin_id"] is String else { return "<span class=\"muted\">service role</span>" }
        return person(action["admin_id"], action["admin_username"])
    }

    /// The grid, moment or report an action was on; `verb` leads with the action ("Hid grid “…”").
    static func actionObject(_ action: [String: Any], verb: Bool = false) -> HTMLText {
        var parts: [HTMLText] = []
        // The label names the kind already: "Hid grid".
        let label = actionLabel(action["action"] as? String ?? "")
        if action["grid_id"] is String { parts.append("\(verb ? label : "grid") “\(action["grid_title"] as? String ?? "(gone)")”") }
        if action["moment_id"] is String { parts.append("\(verb ? label : "moment") “\(action["moment_title"] as? String ?? "(gone)")”") }
        if let report = action["report_id"] as? String { parts.append("<a href=\"/admin/reports/\(report)\">report</a>") }
        return parts.isEmpty ? "—" : HTMLText(trusted: parts.map(\.html).joined(separator: " · "))
    }
}
