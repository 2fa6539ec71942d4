import Foundation
import Postgres

/// The report queue and a report's page: what was reported (as it was then, and as
/// it is now), by whom, why, and the actions that answer it.
extension AdminSite {
    static let queueStatuses = ["open", "actioned", "dismissed", "all"]
    static let pageSize = 50

    func queuePage(_ request: HTTPRequest, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let status = Self.query(request, "status") ?? "open"
        guard Self.queueStatuses.contains(status) else {
            throw Refusal(Self.errorPage(400, "No such filter", "status is open, actioned, dismissed or all, not \(status).", admin: admin))
        }
        let before = try Self.timestampParameter(request, "before", admin: admin)
        let reports = try await rpc("""
            select social.admin_list_reports(\(status == "all" ? nil : status), \(Self.pageSize), \(before)::timestamptz)::text
            """, as: admin) as? [[String: Any]] ?? []
        let tabs = Self.queueStatuses.map { item -> HTMLText in
            "<a href=\"/admin/reports?status=\(item)\"\(item == status ? HTMLText(" aria-current=\"page\"") : .empty)>\(item.capitalized)</a>"
        }
        let rows = reports.map { report -> HTMLText in
            let id = report["id"] as? String ?? ""
            let kind = report["target_type"] as? String ?? ""
            let summary = report["summary"] as? String ?? ""
            // Storage shows an admin the pictures of open reports only.
            let open = report["status"] as? String == "open"
            let picture: HTMLText = (report["picture_path"] as? String).flatMap { open ? $0 : nil }.map {
                "<img class=\"thumb\" src=\"\(Self.pictureURL(kind == "user" ? "avatars" : "photos", $0))\" alt=\"\">"
            } ?? "<span class=\"thumb none\" aria-hidden=\"true\">\(Self.kindLabel(kind).prefix(1).uppercased())</span>"
            let details = (report["details"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            let detailsHTML: HTMLText = details.map { "<div class=\"muted details\">\($0)</div>" } ?? .empty
            let owner: HTMLText = kind == "user" ? .empty
                : "<div class=\"muted\">by \(Self.person(report["target_user_id"], report["target_username"]))</div>"
            let name = kind == "user" ? "@" + summary : summary.isEmpty ? "(untitled)" : summary
            return """
                <tr>
                <td>\(picture)</td>
                <td><span class="kind \(kind)">\(Self.kindLabel(kind))</span> <a class="target" href="/admin/reports/\(id)">\(name)</a>
                \(owner)</td>
                <td><span class="reason">\(report["reason"] as? String ?? "")</span>\(detailsHTML)</td>
                <td>\(Self.person(report["reporter_id"], report["reporter_username"]))</td>
                <td>\(Self.time(report["created_at"]))</td>
                <td><span class="status \(report["status"] as? String ?? "")">\(report["status"] as? String ?? "")</span></td>
                </tr>
                """
        }
        let table: HTMLText = reports.isEmpty
            ? "<p class=\"empty\">No \(status == "all" ? "" : status + " ")reports.</p>"
            : """
                <table class="queue">
                <thead><tr><th></th><th>Reported</th><th>Reason</th><th>By</th><th>When</th><th>Status</th></tr></thead>
                <tbody>\(rows)</tbody>
                </table>
                """
        let older: HTMLText = reports.count == Self.pageSize ? (reports.last?["created_at"] as? String).map {
            "<p><a class=\"more\" href=\"/admin/reports?status=\(status)&amp;before=\(URLQuery.percentEncode($0))\">Older reports</a></p>"
        } ?? .empty : .empty
        return Self.page(title: "Reports", admin: admin, section: .reports, notice: Self.notice(request), """
            <nav class="tabs">\(tabs)</nav>
            \(table)\(older)
            """)
    }

    func reportPage(_ request: HTTPRequest, id: UUID, admin: Admin) async throws(Refusal) -> HTTPResponse {
        let answer = try await rpc("select social.admin_get_report(\(id))::text", as: admin) as? [String: Any] ?? [:]
        let report = answer["report"] as? [String: Any] ?? [:]
        let current = answer["current"] as? [String: Any]
        let snapshot = report["snapshot"] as? [String: Any] ?? [:]
        let kind = report["target_type"] as? String ?? ""
        let status = report["status"] as? String ?? ""
        let back = "/admin/reports/\(id.uuidString.lowercased())"
        let details = Self.shown(report["details"])
        let resolved: HTMLText = report["resolved_at"] is String
            ? "<dt>Resolved</dt><dd>\(Self.time(report["resolved_at"])) by \(Self.person(report["resolved_by"], answer["resolved_by_username"]))</dd>"
            : .empty
        let suspendedBadge: HTMLText = answer["target_suspended"] as? Bool == true ? " <span class=\"badge warn\">sharing suspended</span>" : .empty
        let facts: HTMLText = """
            <dl class="facts">
            <dt>Status</dt><dd><span class="status \(status)">\(status)</span></dd>
            <dt>Reason</dt><dd><span class="reason">\(report["reason"] as? String ?? "")</span></dd>
            <dt>Details</dt><dd>\(details)</dd>
            <dt>Reported by</dt><dd>\(Self.person(report["reporter_id"], answer["reporter_username"])) on \(Self.time(report["created_at"]))</dd>
            <dt>About</dt><dd>\(Self.person(report["target_user_id"], answer["target_username"]))\(suspendedBadge)</dd>
            \(resolved)</dl>
            """
        let title = (snapshot["title"] as? String) ?? (snapshot["username"] as? String).map { "@" + $0 } ?? "Report"
        return Self.page(title: "\(Self.kindLabel(kind)) report: \(title.isEmpty ? "(untitled)" : title)", admin: admin, section: .reports,
                         notice: Self.notice(request), """
            \(facts)
            <section class="panel"><h2>As reported</h2>\(Self.reportedContent(kind, snapshot, pictures: status == "open"))</section>
            <section class="panel"><h2>Now</h2>\(Self.currentState(kind, current, suspended: answer["target_suspended"] as? Bool == true))</section>
            <section class="panel actions"><h2>Act</h2>\(reportActions(report, current: current, answer: answer, back: back, admin: admin))</section>
            <section><h2>Actions on this report</h2>\(Self.actionTable(answer["actions"] as? [[String: Any]] ?? []))</section>
            """)
    }

    /// The forms that answer a report: hide or unhide what it is about, suspend or lift
    /// its owner's sharing, dismiss it.
    private func reportActions(_ report: [String: Any], current: [String: Any]?, answer: [String: Any], back: String,
                               admin: Admin) -> HTMLText {
        var forms: [HTMLText] = []
        let reportID = report["id"] as? String ?? ""
        let reportField: HTMLText = "<input type=\"hidden\" name=\"report\" value=\"\(reportID)\">\n"
        for (kind, key, word) in [("grid", "grid_id", "grids"), ("moment", "moment_id", "moments")] {
            guard report["target_type"] as? String == kind, let target = report[key] as? String, let current else { continue }
            if current["hidden_at"] is String {
                forms.append(Self.actionForm("/admin/\(word)/\(target)/unhide", admin: admin, back: back, button: "Unhide \(kind)",
                                             "\(reportField)\(Self.noteField())"))
            } else {
                let effect = kind == "grid" ? "out of the Atlas" : "from everyone but its owner"
                forms.append(Self.actionForm("/admin/\(word)/\(target)/hide", admin: admin, back: back, button: "Hide \(kind)", style: "danger",
                                             confirm: "Hide this \(kind) \(effect)?", "\(reportField)\(Self.noteField())"))
            }
        }
        if let owner = report["target_user_id"] as? String {
            forms.append(Self.suspensionForm(person: owner, username: answer["target_username"] as? String ?? "",
                                             suspended: answer["target_suspended"] as? Bool == true, back: back, admin: admin))
        }
        if report["status"] as? String == "open" {
            forms.append(Self.actionForm("/admin/reports/\(reportID)/dismiss", admin: admin, back: back, button: "Dismiss report",
                                         style: "quiet", Self.noteField("Why nothing needs doing (optional)")))
        }
        return forms.isEmpty ? "<p class=\"muted\">Nothing left to do: the reported account is gone.</p>" : "\(forms)"
    }

    /// Suspend (with an optional end) or lift `person`'s sharing.
    static func suspensionForm(person: String, username: String, suspended: Bool, back: String, admin: Admin) -> HTMLText {
        if suspended {
            return actionForm("/admin/people/\(person)/lift", admin: admin, back: back, button: "Lift @\(username)'s suspension", noteField())
        }
        return actionForm("/admin/people/\(person)/suspend", admin: admin, back: back, button: "Suspend @\(username)'s sharing", style: "danger",
                          confirm: "Suspend @\(username)'s sharing? They will reach friends at most and leave the Atlas.", """
            <label class="until"><span>Until the end of</span><input type="date" name="until"> <small class="muted">(UTC; empty: until lifted)</small></label>
            \(noteField())
            """)
    }

    /// The report's snapshot: what the reporter saw.
    /// `pictures`: whether to show photos and avatars (storage shows them to admins while the report is open).
    static func reportedContent(_ kind: String, _ snapshot: [String: Any], pictures withPictures: Bool) -> HTMLText {
        let closed: HTMLText = "<p class=\"muted\">Pictures are shown while a report is open.</p>"
        switch kind {
        case "grid":
            let squares = snapshot["squares"] as? [String] ?? []
            let size = snapshot["size"] as? Int ?? 0
            let cells = squares.map { square -> HTMLText in "<li>\(square)</li>" }
            let board: HTMLText = (7...10).contains(size) && squares.count == size * size
                ? "<ol class=\"board size-\(size)\">\(cells)</ol>" : "<ol class=\"squares\">\(cells)</ol>"
            return """
                <dl class="facts">
                <dt>Title</dt><dd class="title">\(snapshot["title"] as? String ?? "")</dd>
                <dt>Description</dt><dd>\(shown(snapshot["description"]))</dd>
                <dt>Theme</dt><dd>\(snapshot["theme"] as? String ?? "")</dd>
                <dt>Maker</dt><dd>@\(snapshot["maker_username"] as? String ?? "?")</dd>
                </dl>
                \(board)
                """
        case "moment":
            let photos = (snapshot["photos"] as? [[String: Any]] ?? []).compactMap { $0["storage_path"] as? String }
            let pictures: [HTMLText] = !withPictures && !photos.isEmpty ? [closed]
                : photos.map { path -> HTMLText in "<img class=\"photo\" src=\"\(pictureURL("photos", path))\" alt=\"a photo of the moment\">" }
            var extra: [HTMLText] = []
            for (key, label) in [("place", "Place"), ("weather", "Weather"), ("with_whom", "With")] {
                if let value = snapshot[key] as? String, !value.isEmpty { extra.append("<dt>\(label)</dt><dd>\(value)</dd>") }
            }
            let entries = (snapshot["entries"] as? [[String: Any]] ?? []).compactMap { $0["body"] as? String }
                .map { body -> HTMLText in "<li>\(body)</li>" }
            let entriesHTML: HTMLText = entries.isEmpty ? .empty : "<h3>Group entries</h3><ul>\(entries)</ul>"
            return """
                <dl class="facts">
                <dt>Title</dt><dd class="title">\(snapshot["title"] as? String ?? "")</dd>
                <dt>Happened on</dt><dd>\(shown(snapshot["happened_on"]))</dd>
                <dt>Text</dt><dd class="body">\(shown(snapshot["body"]))</dd>
                \(extra)</dl>
                <div class="photos">\(pictures)</div>\(entriesHTML)
                """
        default:
            let avatar: HTMLText = !withPictures ? (snapshot["avatar_path"] is String ? closed : .empty) : (snapshot["avatar_path"] as? String).map {
                "<img class=\"photo\" src=\"\(pictureURL("avatars", $0))\" alt=\"their picture\">"
            } ?? .empty
            return """
                <dl class="facts">
                <dt>Username</dt><dd class="title">@\(snapshot["username"] as? String ?? "?")</dd>
                <dt>Name</dt><dd>\(shown(snapshot["display_name"]))</dd>
                <dt>Bio</dt><dd class="body">\(shown(snapshot["bio"]))</dd>
                </dl>\(avatar)
                """
        }
    }

    /// What the reported thing is like now: hidden, shared, deleted.
    static func currentState(_ kind: String, _ current: [String: Any]?, suspended: Bool) -> HTMLText {
        guard let current else { return "<p class=\"muted\">It no longer exists.</p>" }
        var badges: [HTMLText] = []
        if kind == "user" {
            badges.append(suspended ? "<span class=\"badge warn\">sharing suspended</span>" : "<span class=\"badge ok\">sharing allowed</span>")
        }
        if current["deleted"] as? Bool == true { badges.append("<span class=\"badge\">deleted by its owner</span>") }
        if current["hidden_at"] is String {
            badges.append("<span class=\"badge warn\">hidden since \(time(current["hidden_at"]))</span>")
        } else if kind != "user" {
            badges.append("<span class=\"badge ok\">visible</span>")
        }
        if kind == "grid" {
            badges.append(current["shared"] as? Bool == true ? "<span class=\"badge\">shared to the Atlas by its maker</span>"
                                                              : "<span class=\"badge\">not shared by its maker</span>")
        }
        let title = (current["title"] as? String) ?? (current["username"] as? String).map { "@" + $0 } ?? ""
        return "<p><span class=\"title\">\(title.isEmpty ? "(no title now)" : title)</span> \(badges)</p>"
    }

    /// A text field as shown: "—" when absent or empty.
    static func shown(_ value: Any?) -> String {
        guard let text = value as? String, !text.isEmpty else { return "—" }
        return text
    }

    static func kindLabel(_ kind: String) -> String {
        switch kind {
        case "grid": "Grid"
        case "moment": "Moment"
        default: "Person"
        }
    }

    static func pictureURL(_ bucket: String, _ path: String) -> String {
        "/admin/pictures/\(bucket)/" + URLQuery.percentEncode(path, keepingSlashes: true)
    }

    /// `name`, a timestamp from a link the site made (`before=`), or nil.
    static func timestampParameter(_ request: HTTPRequest, _ name: String, admin: Admin) throws(Refusal) -> String? {
        guard let text = query(request, name) else { return nil }
        guard parseTimestamp(text) != nil else {
            throw Refusal(errorPage(400, "Bad link", "\(name) must be a timestamp like 2026-03-01T10:00:00+00:00: follow the site's own links.",
                                    admin: admin))
        }
        return text
    }
}
