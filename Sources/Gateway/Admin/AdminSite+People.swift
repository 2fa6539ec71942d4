import Foundation

/// A person's page: whether they may share, every suspension and lift (an automatic
/// one with the hides that made it fire), the reports about them and by them, and the
/// actions that count against them.
extension AdminSite {
    func personPage(_ request: HTTPRequest, id: UUID, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let record = try await rpc("select social.admin_user(\(id))::text", as: admin) as? [String: Any] ?? [:]
        let log = try await rpc("""
            select social.admin_moderation_log(p_limit => \(Self.pageSize), p_subject_user_id => \(id))::text
            """, as: admin) as? [[String: Any]] ?? []
        let profile = record["profile"] as? [String: Any] ?? [:]
        let username = profile["username"] as? String ?? "?"
        let suspended = record["suspended"] as? Bool == true
        let back = "/admin/people/\(id.uuidString.lowercased())"
        let hides = record["hides_last_30_days"] as? [[String: Any]] ?? []
        let status: HTMLText = suspended
            ? """
              <p class="sharing suspended"><span class="badge warn">Sharing suspended</span> since \(Self.time(profile["sharing_suspended_at"])), \
              \(profile["sharing_suspended_until"] is String ? HTMLText("until \(Self.time(profile["sharing_suspended_until"]))") : "until lifted"): \
              they reach friends at most and nothing of theirs is in the Atlas.</p>
              """
            : "<p class=\"sharing\"><span class=\"badge ok\">Sharing allowed</span></p>"
        // What the automatic rule counts: distinct grids and moments hidden and not unhidden.
        let standing = Set(hides.filter { !($0["reversed_at"] is String) }.compactMap { ($0["grid_id"] as? String) ?? ($0["moment_id"] as? String) })
        let undone = hides.filter { $0["reversed_at"] is String }.count
        let rule: HTMLText = """
            <p class="muted">Hidden in the last 30 days and not unhidden: \(standing.count)\(undone > 0 ? HTMLText(" (and \(undone) undone)") : .empty). \
            Two within 30 days suspend sharing automatically.</p>
            """
        let facts: HTMLText = """
            <dl class="facts">
            <dt>Name</dt><dd>\(Self.shown(profile["display_name"]))</dd>
            <dt>Bio</dt><dd class="body">\(Self.shown(profile["bio"]))</dd>
            <dt>Joined</dt><dd>\(Self.time(profile["created_at"]))</dd>
            </dl>
            """
        return Self.page(title: "@\(username)", admin: admin, notice: Self.notice(request), """
            \(facts)
            <section class="panel"><h2>Sharing</h2>\(status)\(rule)
            \(Self.suspensionForm(person: id.uuidString.lowercased(), username: username, suspended: suspended, back: back, admin: admin))
            </section>
            <section><h2>Suspensions</h2>\(Self.suspensionHistory(record["suspensions"] as? [[String: Any]] ?? []))</section>
            <section><h2>Reports about @\(username)</h2>\(Self.reportList(record["reports_about"] as? [[String: Any]] ?? []))</section>
            <section><h2>Reports by @\(username)</h2>\(Self.reportList(record["reports_by"] as? [[String: Any]] ?? []))</section>
            <section><h2>Actions counting against @\(username)</h2>\(Self.actionTable(log, subject: false))</section>
            """)
    }

    /// Each suspension and lift; where the automatic rule fired, why.
    static func suspensionHistory(_ suspensions: [[String: Any]]) -> HTMLText {
        guard !suspensions.isEmpty else { return "<p class=\"empty\">Never suspended.</p>" }
        let items = suspensions.map { action -> HTMLText in
            let head: HTMLText = "\(time(action["created_at"])) · \(actionLabel(action["action"] as? String ?? "")) by \(actor(action))"
            let note: HTMLText = (action["note"] as? String).flatMap { $0.isEmpty ? nil : $0 }.map { " — <q>\($0)</q>" } ?? .empty
            guard action["automatic"] as? Bool == true else { return "<li>\(head)\(note)</li>" }
            let hides = (action["hides"] as? [[String: Any]] ?? []).map { hide -> HTMLText in
                let undone: HTMLText = hide["reversed_at"] is String ? " <span class=\"badge\">since undone</span>" : .empty
                return "<li>\(time(hide["created_at"])) · \(actionObject(hide, verb: true)) by \(actor(hide))\(undone)</li>"
            }
            return """
                <li class="rule-fired"><strong>The automatic rule fired</strong> — \(head)
                <p>Two unreversed hides within 30 days suspend sharing. These were the hides it counted:</p>
                <ol>\(hides)</ol></li>
                """
        }
        return "<ul class=\"history\">\(items)</ul>"
    }

    static func reportList(_ reports: [[String: Any]]) -> HTMLText {
        guard !reports.isEmpty else { return "<p class=\"empty\">None.</p>" }
        let rows = reports.map { report -> HTMLText in
            let status = report["status"] as? String ?? ""
            return """
                <tr><td>\(time(report["created_at"]))</td>
                <td><a href="/admin/reports/\(report["id"] as? String ?? "")">\(kindLabel(report["target_type"] as? String ?? ""))</a></td>
                <td><span class="reason">\(report["reason"] as? String ?? "")</span></td>
                <td><span class="status \(status)">\(status)</span></td></tr>
                """
        }
        return "<table class=\"log\"><thead><tr><th>When</th><th>What</th><th>Reason</th><th>Status</th></tr></thead><tbody>\(rows)</tbody></table>"
    }
}
