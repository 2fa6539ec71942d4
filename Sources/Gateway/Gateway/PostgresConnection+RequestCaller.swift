import Postgres

extension PostgresConnection {
    /// Runs one statement as `caller` — role, claims and a statement timeout set for
    /// its transaction only — in one round trip, both statements prepared: how every
    /// REST, storage and realtime read reaches the database. `prepared` for statements
    /// that repeat (RPC calls); table queries vary with every filter and stay unprepared,
    /// so clients cannot fill a connection with prepared statements.
    func query(_ query: PostgresQuery, as caller: RequestCaller, prepared: Bool = false) async throws -> PostgresRows {
        try await queries([query], as: caller, prepared: prepared)[0]
    }

    /// Several statements as `caller` in one transaction and one round trip, their
    /// results in order. `readOnly` makes the transaction read-only after the identity
    /// is set (PostgREST's GET and HEAD): writes then fail with PostgreSQL's 25006.
    func queries(_ queries: [PostgresQuery], as caller: RequestCaller, prepared: Bool = false,
                 readOnly: Bool = false) async throws -> [PostgresRows] {
        let sub = caller.userID?.uuidString.lowercased() ?? ""
        var identity: PostgresQuery = """
            select set_config('role', \(caller.role), true),
                   set_config('request.jwt.claims', \(caller.claimsJSON), true),
                   set_config('request.jwt.claim.sub', \(sub), true),
                   set_config('request.jwt.claim.role', \(caller.role), true),
                   set_config('statement_timeout', '15s', true)
            """
        // Going read-only is allowed at any point of a transaction (going back is not).
        if readOnly { identity.sql += ", set_config('transaction_read_only', 'on', true)" }
        return Array(try await pipeline([identity] + queries, prepared: prepared).dropFirst())
    }
}
