import Postgres

extension PostgresConnection {
    /// Runs one statement as `caller` — role, claims and a statement timeout set for
    /// its transaction only — in one round trip, both statements prepared: how every
    /// REST, storage and realtime read reaches the database. `prepared` for statements
    /// that repeat (RPC calls); table queries vary with every filter and stay unprepared,
    /// so clients cannot fill a connection with prepared statements.
    func query(_ query: PostgresQuery, as caller: RequestCaller, prepared: Bool = false) async throws -> PostgresRows {
        let sub = caller.userID?.uuidString.lowercased() ?? ""
        let identity: PostgresQuery = """
            select set_config('role', \(caller.role), true),
                   set_config('request.jwt.claims', \(caller.claimsJSON), true),
                   set_config('request.jwt.claim.sub', \(sub), true),
                   set_config('request.jwt.claim.role', \(caller.role), true),
                   set_config('statement_timeout', '15s', true)
            """
        return try await pipeline([identity, query], prepared: prepared)[1]
    }
}
