extension PostgresConnection {
    /// Runs one statement as `caller`, in a transaction of its own and in one network
    /// round trip — the way the hosted platform's gateway serves a request.
    ///
    /// Role and claims are set with `set_config(…, true)` in the same pipeline as the
    /// statement, so they last exactly as long as the pipeline's implicit transaction;
    /// if the statement fails, nothing it did is kept. Both statements are prepared
    /// on this connection the first time, since such calls repeat. `acting(as:)` gives the same
    /// caller for a block of several statements, at a round trip per step.
    public func query(_ query: PostgresQuery, as caller: Caller) async throws -> PostgresRows {
        guard transactionDepth == 0 else {
            throw PostgresError.client(
                "query(_:as:) runs a transaction of its own and cannot run inside one; use acting(as:) there")
        }
        let sub = caller.userID?.uuidString.lowercased() ?? ""
        let identity: PostgresQuery = """
            select set_config('role', \(caller.role), true),
                   set_config('request.jwt.claims', \(caller.claimsJSON), true),
                   set_config('request.jwt.claim.sub', \(sub), true),
                   set_config('request.jwt.claim.role', \(caller.role), true)
            """
        return try await pipeline([identity, query], prepared: true)[1]
    }
}
