import Foundation
import Postgres

/// A board as one person may see it, for `summit grids board`.
///
/// Your own boards and the groups you belong to are read through row level
/// security, as the phone's sync reads them; anyone else's board comes from
/// `grids.person_grid`, which shows only what its audience lets you see.
enum BoardView {
    /// The board, or nil when `caller` may not see it.
    static func fetch(_ id: UUID, as caller: Caller, in session: AppSession) async throws -> AppSession.Answer? {
        let own = try await session.connection.acting(as: caller) { connection in
            try await connection.query("""
                select jsonb_build_object(
                  'user_grid_id', ug.id, 'grid_id', g.id, 'title', g.title, 'theme', g.theme, 'size', g.size,
                  'audience', ug.audience, 'group', ug.group_id is not null,
                  'owner_username', (select username from social.profiles where id = ug.user_id and ug.group_id is null),
                  'squares', (select jsonb_agg(jsonb_build_object(
                                'position', s.position, 'state', s.state, 'freebie', s.freebie,
                                'prompt', case when s.state <> 'hidden' then q.prompt end,
                                'moment', (select jsonb_build_object('id', m.id, 'title', m.title, 'happened_on', m.happened_on)
                                           from grids.moments m where m.user_square_id = s.id and not m.deleted))
                              order by s.position)
                              from grids.user_square_states s
                              join grids.grid_squares q on q.grid_id = g.id and q.position = s.position
                              where s.user_grid_id = ug.id))::text
                from grids.user_grids ug join grids.grids g on g.id = ug.grid_id
                where ug.id = \(id) and not ug.deleted
                """).first(as: String.self)
        }
        if let own { return AppSession.Answer(text: own, json: try JSONValue(parsing: own)) }
        let theirs = try await session.call("grids.person_grid", [("p_user_grid_id", id)], as: caller)
        return theirs.json.isNull ? nil : theirs
    }

    /// The caller's own boards and groups, oldest first, with how many squares are done.
    static func shelf(as caller: Caller, in session: AppSession) async throws -> AppSession.Answer {
        let text = try await session.connection.acting(as: caller) { connection in
            try await connection.query("""
                select coalesce(jsonb_agg(jsonb_build_object(
                         'id', ug.id, 'grid_id', g.id, 'title', g.title, 'size', g.size, 'audience', ug.audience,
                         'group', ug.group_id is not null,
                         'done', (select count(*) from grids.user_square_states s
                                  where s.user_grid_id = ug.id and s.state = 'done'))
                       order by ug.created_at, ug.id), '[]'::jsonb)::text
                from grids.user_grids ug join grids.grids g on g.id = ug.grid_id
                where not ug.deleted
                """).scalar(String.self)
        }
        return AppSession.Answer(text: text, json: try JSONValue(parsing: text))
    }

    /// The board drawn as text: a square of marks, then the prompts that can be seen.
    static func render(_ board: JSONValue) -> String {
        let size = board["size"].int ?? 0
        let squares = board["squares"].array
        let mark = { (square: JSONValue) -> String in
            switch square["state"].string {
            case "done": "#"
            case "revealed": "o"
            default: "."
            }
        }
        let whose = board["group"].bool == true ? "a group board" : board["owner_username"].string.map { "\($0)'s board" } ?? "a board"
        var lines = ["\(board["title"].string ?? "") — \(whose) (\(size) x \(size), \(board["theme"].string ?? ""), "
                     + "\(board["group"].bool == true ? "group" : board["audience"].string ?? ""))", ""]
        for row in 0..<size {
            lines.append("  " + (0..<size).map { column in
                squares.indices.contains(row * size + column) ? mark(squares[row * size + column]) : "?"
            }.joined(separator: " "))
        }
        let done = squares.filter { $0["state"].string == "done" }.count
        lines.append("")
        lines.append("# done   o revealed   . hidden      \(done) of \(size * size) done")
        let visible = squares.filter { $0["prompt"].string != nil }
        if !visible.isEmpty { lines.append("") }
        for square in visible {
            let position = String(square["position"].int ?? 0)
            var line = String(repeating: " ", count: max(0, 4 - position.count)) + position + " " + mark(square) + "  "
                + (square["prompt"].string ?? "")
            if let title = square["moment"]["title"].string { line += " — \"\(title)\"" }
            if square["freebie"].bool == true { line += " (freebie)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
