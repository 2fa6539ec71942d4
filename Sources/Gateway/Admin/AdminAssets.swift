/// The admin site's stylesheet and script, served by the gateway itself (no build
/// step, nothing from elsewhere): the Content-Security-Policy allows scripts and
/// styles from this site only, and nothing inline.
enum AdminAssets {
    static func response(_ name: String) -> HTTPResponse {
        let (type, text): (String, String)
        switch name {
        case "admin.css": (type, text) = ("text/css; charset=utf-8", stylesheet)
        case "admin.js": (type, text) = ("text/javascript; charset=utf-8", script)
        default:
            return HTTPResponse(status: 404, headers: ["content-type": "text/plain; charset=utf-8"],
                                body: Array("the admin site serves admin.css and admin.js\n".utf8))
        }
        return HTTPResponse(status: 200, headers: ["content-type": type, "cache-control": "public, max-age=300"], body: Array(text.utf8))
    }

    /// Forms that ask before they act (`data-confirm`), and times in the reader's own zone.
    static let script = #"""
        "use strict";
        document.addEventListener("submit", function (event) {
          var question = event.target.getAttribute("data-confirm");
          if (question && !window.confirm(question)) { event.preventDefault(); }
        });
        document.addEventListener("DOMContentLoaded", function () {
          var format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
          document.querySelectorAll("time[datetime]").forEach(function (element) {
            var date = new Date(element.getAttribute("datetime"));
            if (!isNaN(date)) {
              element.title = element.textContent;
              element.textContent = format.format(date);
            }
          });
        });
        """#

    static let stylesheet = #"""
        :root {
          --ink: #1b2a3a; --muted: #5a6b7c; --line: #d8e0e8; --paper: #ffffff; --ground: #f4f7fb;
          --accent: #1f5fd1; --danger: #b42318; --warn: #b54708; --ok: #2e7d32;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
          font-size: 15px; line-height: 1.45; color: var(--ink); background: var(--ground);
        }
        * { box-sizing: border-box; }
        body { margin: 0; }
        a { color: var(--accent); text-decoration: none; }
        a:hover { text-decoration: underline; }
        code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
        .bar { display: flex; align-items: center; gap: 24px; padding: 10px 24px; background: var(--ink); color: #fff; }
        .bar .brand { color: #fff; font-weight: 700; letter-spacing: 0.02em; }
        .bar nav { display: flex; gap: 4px; flex: 1; }
        .bar nav a { color: #c9d6e3; padding: 6px 12px; border-radius: 6px; }
        .bar nav a[aria-current] { background: rgba(255, 255, 255, 0.14); color: #fff; }
        .bar .who { display: flex; align-items: center; gap: 10px; margin: 0; color: #c9d6e3; }
        main { max-width: 1120px; margin: 0 auto; padding: 24px; }
        h1 { font-size: 1.6rem; margin: 0 0 16px; overflow-wrap: anywhere; }
        h2 { font-size: 1.1rem; margin: 0 0 12px; }
        h3 { font-size: 1rem; margin: 16px 0 8px; }
        section { margin: 24px 0; }
        .panel { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; }
        .notice { background: #e7f5ea; border: 1px solid #b7dfc0; color: #1e5b2a; padding: 10px 14px; border-radius: 8px; }
        .problem { background: #fdecea; border: 1px solid #f5c2bd; color: var(--danger); padding: 10px 14px; border-radius: 8px; }
        .muted { color: var(--muted); }
        .empty { color: var(--muted); font-style: italic; }
        .details { max-width: 34ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; margin-top: 4px; }
        td time, .history time { white-space: nowrap; }
        form.action button { margin-top: auto; }
        .clip { max-width: 28ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; display: inline-block; vertical-align: bottom; }
        table { width: 100%; border-collapse: collapse; background: var(--paper); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
        th, td { text-align: left; padding: 10px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); background: #fafbfd; }
        tr:last-child td { border-bottom: none; }
        tr.automatic td { background: #fff8eb; }
        td.note { color: var(--muted); overflow-wrap: anywhere; }
        .target { font-weight: 600; overflow-wrap: anywhere; }
        .thumb { width: 48px; height: 48px; border-radius: 6px; object-fit: cover; display: inline-flex; align-items: center;
                 justify-content: center; background: #e6ecf3; color: var(--muted); font-weight: 700; }
        .photos { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 12px; }
        .photo { max-width: 240px; max-height: 240px; border-radius: 8px; border: 1px solid var(--line); }
        .tabs { display: flex; gap: 6px; margin-bottom: 14px; }
        .tabs a { padding: 6px 14px; border-radius: 999px; border: 1px solid var(--line); background: var(--paper); color: var(--ink); }
        .tabs a[aria-current] { background: var(--ink); border-color: var(--ink); color: #fff; }
        .kind, .badge, .status, .reason { display: inline-block; font-size: 0.78rem; padding: 2px 8px; border-radius: 999px;
                                          background: #e6ecf3; color: var(--ink); white-space: nowrap; }
        .kind.grid { background: #e3ecfd; } .kind.moment { background: #f1e6fd; } .kind.user { background: #fdeee3; }
        .status.open { background: #fff1d6; color: var(--warn); } .status.actioned { background: #e7f5ea; color: var(--ok); }
        .status.dismissed { background: #eceff3; color: var(--muted); }
        .badge.warn { background: #fdecea; color: var(--danger); } .badge.ok { background: #e7f5ea; color: var(--ok); }
        .badge.rule { background: #fff1d6; color: var(--warn); font-weight: 600; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 0 0 16px; }
        .facts dt { color: var(--muted); }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        .title { font-weight: 600; overflow-wrap: anywhere; }
        .body { white-space: pre-wrap; }
        .board { display: grid; gap: 4px; list-style: none; padding: 0; margin: 12px 0 0; }
        .board.size-7 { grid-template-columns: repeat(7, 1fr); } .board.size-8 { grid-template-columns: repeat(8, 1fr); }
        .board.size-9 { grid-template-columns: repeat(9, 1fr); } .board.size-10 { grid-template-columns: repeat(10, 1fr); }
        .board li { background: #f4f7fb; border: 1px solid var(--line); border-radius: 4px; padding: 4px; font-size: 0.72rem;
                    min-height: 44px; overflow-wrap: anywhere; }
        .actions { display: flex; flex-wrap: wrap; gap: 16px; }
        .actions h2 { flex-basis: 100%; margin-bottom: 0; }
        form.action { display: flex; flex-direction: column; gap: 8px; flex: 1 1 260px; padding: 12px; border: 1px solid var(--line);
                      border-radius: 8px; background: #fafbfd; }
        label { display: flex; flex-direction: column; gap: 4px; font-size: 0.9rem; }
        label span { color: var(--muted); }
        input, textarea { font: inherit; padding: 8px 10px; border: 1px solid #b9c6d3; border-radius: 6px; background: #fff; }
        button { font: inherit; font-weight: 600; padding: 8px 14px; border-radius: 6px; border: 1px solid var(--accent);
                 background: var(--accent); color: #fff; cursor: pointer; }
        button.danger { background: var(--danger); border-color: var(--danger); }
        button.quiet { background: transparent; color: inherit; border-color: currentColor; font-weight: 500; }
        .sign-in { display: flex; flex-direction: column; gap: 14px; max-width: 360px; padding: 24px; background: var(--paper);
                   border: 1px solid var(--line); border-radius: 10px; }
        .history { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 10px; }
        .history > li { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
        .history > li.rule-fired { border-color: #f3c77a; background: #fff8eb; }
        .history p { margin: 6px 0; }
        .sharing { font-size: 1.05rem; }
        .figures { margin: 0; padding-left: 18px; }
        .figures li.stage { list-style: none; margin-left: -18px; font-weight: 600; }
        .graph { margin: 24px 0; background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 12px; }
        .graph img { width: 100%; height: auto; display: block; }
        .graph figcaption { color: var(--muted); font-size: 0.85rem; margin-top: 6px; }
        .more { display: inline-block; margin-top: 12px; }
        """#
}
