import Foundation
import Postgres
import SummitTestSupport
import Testing

/// `query(_:as:)`: one statement as a caller, in one round trip and one transaction.
@Suite struct OneTripTests {
    @Test func theStatementRunsAsTheCallerAndNothingOutlivesIt() async throws {
        try await withFreshConnection { db in
            let user = UUID()
            let seen = try await db.query(
                "select current_user::text || ' ' || auth.uid()::text || ' ' || auth.role()", as: .user(user)).scalar(String.self)
            #expect(seen == "authenticated \(user.uuidString.lowercased()) authenticated")
            let after = try await db.query(
                "select current_user::text || '|' || coalesce(current_setting('request.jwt.claims', true), '')").scalar(String.self)
            #expect(!after.hasPrefix("authenticated"), "the role ends with the statement's transaction")
            #expect(after.hasSuffix("|"), "and so do the claims")
            #expect(try await db.query("select auth.role()", as: .anon).scalar(String.self) == "anon")
        }
    }

    @Test func aFailureUndoesTheStatementAndLeavesTheConnectionUsable() async throws {
        try await withFreshConnection { db in
            try await db.simpleQuery("create table one_trip (n int); grant insert on one_trip to service_role")
            await #expect(throws: PostgresError.self) {
                try await db.query("insert into one_trip select 1 / (n - n) from (values (1), (2)) v(n)", as: .serviceRole)
            }
            try await db.query("insert into one_trip values (7)", as: .serviceRole)
            #expect(try await db.query("select count(*) from one_trip").scalar(Int.self) == 1)
            #expect(await db.isIdle)
            await #expect(throws: PostgresError.self, "inside a transaction it refuses rather than end the transaction") {
                try await db.transaction { db in try await db.query("select 1", as: .serviceRole) }
            }
        }
    }

    @Test func repeatedCallsArePreparedOnce() async throws {
        try await withFreshConnection { db in
            for n in 0..<5 {
                let doubled = try await db.query("select \(n)::int * 2", as: .serviceRole).scalar(Int.self)
                #expect(doubled == n * 2)
            }
            let optional: Int? = nil
            #expect(try await db.query("select coalesce(\(optional)::int, -1)", as: .serviceRole).scalar(Int.self) == -1)
            #expect(try await db.query("select coalesce(\(Optional(4))::int, -1)", as: .serviceRole).scalar(Int.self) == 4)
            await #expect(throws: PostgresError.self) { try await db.query("select 1 / \(0)::int", as: .serviceRole) }
            #expect(try await db.query("select 1 / \(1)::int", as: .serviceRole).scalar(Int.self) == 1, "a failure leaves the cache sound")
            let prepared = try await db.query(
                "select count(*) from pg_prepared_statements where name like 'summit_%'").scalar(Int.self)
            // The identity statement, the doubling, the coalesce (a typed null has its value's type) and the division.
            let texts = try await db.query("select statement from pg_prepared_statements").decode(String.self)
            #expect(prepared == 4, "each \(texts) distinct text and parameter types is prepared once, not once per call")
        }
    }
}
