import Foundation

/// The frame every admin page shares — the bar with the sections and sign-out, the
/// title, a notice — and the small pieces pages are made of.
extension AdminSite {
    enum Section: String, CaseIterable {
        case reports = "Reports", log = "Log", resorts = "Resorts"

        var path: String { "/admin/" + rawValue.lowercased() }
    }

    /// What a finished action says on the page it leads back to (`?done=`): fixed
    /// sentences, so nothing in a URL is ever shown as it came.
    static let notices: [String: String] = [
        "hid-grid": "The grid is hidden: it left the Atlas.",
        "unhid-grid": "The grid is visible again: back in the Atlas if its maker shares it.",
        "hid-moment": "The moment is hidden from everyone but its owner.",
        "unhid-moment": "The moment is visible again.",
        "suspended": "Sharing is suspended.",
        "lifted": "The suspension is lifted.",
        "dismissed": "The report is dismissed.",
        "signed-out": "You are signed out.",
    ]

    static func page(_ status: Int = 200, title: String, admin: Admin?, section: Section? = nil, notice: String? = nil,
                     _ body: HTMLText) -> HTTPResponse {
        var bar: HTMLText = ""
        if let admin {
            let links = Section.allCases.map { item -> HTMLText in
                "<a href=\"\(item.path)\"\(item == section ? HTMLText(" aria-current=\"page\"") : HTMLText.empty)>\(item.rawValue)</a>"
            }
            bar = """
                <nav>\(links)</nav>
                <form method="post" action="/admin/sign-out" class="who">
                <input type="hidden" name="csrf" value="\(admin.formToken)">
                <span>\(admin.username)</span> <button type="submit" class="quiet">Sign out</button></form>
                """
        }
        let noticeHTML: HTMLText = notice.map { "<p class=\"notice\" role=\"status\">\($0)</p>" } ?? .empty
        let document: HTMLText = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Summit moderation</title>
            <link rel="stylesheet" href="/admin/static/admin.css">
            <script src="/admin/static/admin.js" defer></script>
            </head>
            <body>
            <header class="bar"><a class="brand" href="/admin/reports">Summit moderation</a>\(bar)</header>
            <main>
            <h1>\(title)</h1>
            \(noticeHTML)\(body)
            </main>
            </body>
            </html>

            """
        return HTTPResponse(status: status, headers: ["content-type": "text/html; charset=utf-8"], body: Array(document.html.utf8))
    }

    /// A page that says what went wrong and what to do.
    static func errorPage(_ status: Int, _ title: String, _ message: String, admin: Admin? = nil) -> HTTPResponse {
        page(status, title: title, admin: admin, "<p class=\"problem\">\(message)</p>")
    }

    /// The notice `?done=` names, if it is one of ours.
    static func notice(_ request: HTTPRequest) -> String? {
        request.queryItems?.first { $0.name == "done" }.flatMap { notices[$0.value] }
    }

    static func query(_ request: HTTPRequest, _ name: String) -> String? {
        request.queryItems?.first { $0.name == name }?.value
    }

    /// A POST form of this session: the token, where to come back to, the fields and
    /// a button; `confirm` asks first (admin.js).
    static func actionForm(_ action: String, admin: Admin, back: String, button: String, style: String = "",
                           confirm: String? = nil, _ fields: HTMLText = .empty) -> HTMLText {
        let ask: HTMLText = confirm.map { " data-confirm=\"\($0)\"" } ?? .empty
        return """
            <form method="post" action="\(action)" class="action"\(ask)>
            <input type="hidden" name="csrf" value="\(admin.formToken)">
            <input type="hidden" name="back" value="\(back)">
            \(fields)<button type="submit" class="\(style)">\(button)</button>
            </form>
            """
    }

    /// A note field for the moderation log.
    static func noteField(_ placeholder: String = "Note for the log (optional)") -> HTMLText {
        "<label class=\"note\"><span>Note</span><textarea name=\"note\" maxlength=\"1000\" rows=\"2\" placeholder=\"\(placeholder)\"></textarea></label>\n"
    }

    /// A timestamp in UTC, turned into the reader's own time by admin.js.
    static func time(_ value: Any?) -> HTMLText {
        guard let text = value as? String, let date = parseTimestamp(text) else { return "—" }
        return "<time datetime=\"\(Formats.instant.string(from: date))\">\(Formats.minute.string(from: date)) UTC</time>"
    }

    /// PostgreSQL's JSON timestamps, with or without fractions of a second.
    static func parseTimestamp(_ text: String) -> Date? {
        Formats.fractional.date(from: text) ?? Formats.instant.date(from: text)
    }

    /// Made once: a page shows hundreds of times. Formatters are safe to share across threads.
    enum Formats {
        nonisolated(unsafe) static let instant = ISO8601DateFormatter()
        nonisolated(unsafe) static let fractional: ISO8601DateFormatter = {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }()
        nonisolated(unsafe) static let minute = utc("yyyy-MM-dd HH:mm")
        nonisolated(unsafe) static let day = utc("yyyy-MM-dd")

        private static func utc(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter
        }
    }

    /// A person by username, linked to their page.
    static func person(_ id: Any?, _ username: Any?) -> HTMLText {
        guard let id = id as? String else { return "<span class=\"muted\">(deleted account)</span>" }
        return "<a href=\"/admin/people/\(id)\">@\(username as? String ?? "?")</a>"
    }
}
