import Foundation

extension GridStore {
    /// The boards on the shelf, oldest first.
    public func boards() throws -> [Board] {
        try rows(.userGrids, where: "deleted = 0 order by created_at, id").compactMap { try board($0.id) }
    }

    /// A board with its squares' states derived as the server derives them (R2):
    /// done with a freebie or a live moment, else revealed (stored, or next to a square
    /// with a freebie or a moment ever logged, R3) or hidden.
    public func board(_ id: UUID) throws -> Board? {
        guard let board = try row(.userGrids, id), !board.deleted, let gridID = board.uuid("grid_id") else { return nil }
        let template = try row(.grids, gridID)
        let prompts = template?.text("squares").flatMap { try? JSON(parsing: $0) }?.array?.compactMap(\.string) ?? []
        let moments = try database.rows("""
            select s.id, m.id as moment_id, m.title, m.deleted, m.merged_into is not null as merged from user_squares s
            join moments m on m.user_square_id = s.id
            where s.user_grid_id = ?
            """, [id.lowercased])
        var live: [String: (UUID, String)] = [:]
        // Squares a moment was ever logged on (deleted or not; not one merged into another): they reveal their neighbours.
        var logged: Set<String> = []
        for moment in moments {
            guard let square = moment["id"].text else { continue }
            if moment["merged"].integer != 1 { logged.insert(square) }
            if moment["deleted"].integer == 0, let momentID = moment["moment_id"].text.flatMap(UUID.init(uuidString:)) {
                live[square] = (momentID, moment["title"].text ?? "")
            }
        }
        let rows = try rows(.userSquares, where: "user_grid_id = ? and deleted = 0 order by position", [id.lowercased])
        let revealing = Set(rows.filter { $0.timestamp("freebie_at") != nil || logged.contains($0.id.lowercased) }.compactMap { $0.int("position") })
        let geometry = BoardGeometry(side: template?.int("size") ?? 0)
        let squares = rows.map { square in
            let position = square.int("position") ?? 0
            let freebie = square.timestamp("freebie_at") != nil
            let moment = live[square.id.lowercased]
            // Revealed: stored, or next to a square done once (R3, before the server has written it).
            let revealed = square.timestamp("revealed_at") != nil || geometry.neighbours(of: position).contains(where: revealing.contains)
            let state: Square.State = freebie || moment != nil ? .done : revealed ? .revealed : .hidden
            return Square(id: square.id, position: position, state: state, freebie: freebie,
                          prompt: state == .hidden || !prompts.indices.contains(position) ? nil : prompts[position],
                          momentID: moment?.0, momentTitle: moment?.1)
        }
        return Board(id: id, gridID: gridID, title: template?.text("title") ?? "", size: template?.int("size") ?? 0,
                     audience: Audience(rawValue: board.text("audience") ?? "") ?? .private, groupID: board.groupID,
                     squares: squares)
    }
}
