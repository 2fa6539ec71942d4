extension PostgresConnection {
    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// Nested calls use savepoints, so an inner failure undoes only the inner work.
    /// `body` runs on this connection's thread with the connection isolated to it.
    public func transaction<T: Sendable>(
        _ body: @Sendable (isolated PostgresConnection) async throws -> T
    ) async throws -> T {
        try await transaction(assuming: nil, body)
    }

    /// Runs `body` in a transaction as `caller`: `SET LOCAL ROLE` plus the JWT claims in
    /// `request.jwt.claims` (and the older `request.jwt.claim.sub` / `.role`), exactly where
    /// the hosted platform puts them. Everything reverts when the transaction ends.
    public func acting<T: Sendable>(
        as caller: Caller, _ body: @Sendable (isolated PostgresConnection) async throws -> T
    ) async throws -> T {
        try await transaction(assuming: caller, body)
    }

    private func transaction<T: Sendable>(
        assuming caller: Caller?, _ body: @Sendable (isolated PostgresConnection) async throws -> T
    ) async throws -> T {
        let depth = transactionDepth
        let savepoint = "summit_savepoint_\(depth)"
        try await simpleQuery(depth == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        defer { transactionDepth = depth }
        let value: T
        do {
            // An inner caller must not outlive its block: remember who the outer one was.
            let outer = depth > 0 && caller != nil ? try await currentIdentity() : nil
            if let caller { try await assume(caller) }
            value = try await body(self)
            if let outer { try await restore(outer) }
        } catch {
            // The original error is what the caller needs; a failed rollback (say, a lost
            // connection) already means the server discarded the transaction.
            _ = try? await simpleQuery(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint)")
            throw error
        }
        try await simpleQuery(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
        return value
    }

    private struct Identity: Decodable {
        var role: String?
        var claims: String?
        var sub: String?
        var claimRole: String?
    }

    private func currentIdentity() async throws -> Identity {
        try await query("""
            select case when current_user = session_user then null else current_user::text end as role,
                   current_setting('request.jwt.claims', true) as claims,
                   current_setting('request.jwt.claim.sub', true) as sub,
                   current_setting('request.jwt.claim.role', true) as claim_role
            """).first(as: Identity.self)!
    }

    private func restore(_ identity: Identity) async throws {
        try await query("""
            select set_config('request.jwt.claims', \(identity.claims ?? ""), true),
                   set_config('request.jwt.claim.sub', \(identity.sub ?? ""), true),
                   set_config('request.jwt.claim.role', \(identity.claimRole ?? ""), true)
            """)
        try await simpleQuery("SET LOCAL ROLE " + (identity.role.map(PostgresQuery.quoteIdentifier) ?? "NONE"))
    }

    /// Sets role and claims for the rest of the current transaction.
    func assume(_ caller: Caller) async throws {
        let sub = caller.userID?.uuidString.lowercased() ?? ""
        try await query("""
            select set_config('request.jwt.claims', \(caller.claimsJSON), true),
                   set_config('request.jwt.claim.sub', \(sub), true),
                   set_config('request.jwt.claim.role', \(caller.role), true)
            """)
        // Role names come from the Caller enum, never from input.
        try await simpleQuery("SET LOCAL ROLE \(PostgresQuery.quoteIdentifier(caller.role))")
    }
}
