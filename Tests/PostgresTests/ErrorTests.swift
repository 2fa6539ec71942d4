import Foundation
import Postgres
import SummitTestSupport
import Testing

/// Server errors arrive with their SQLSTATE and every diagnostic field.
@Suite struct ErrorTests {
    @Test func constraintViolationsAreMatchable() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("""
                create table items (id int primary key, qty int constraint qty_positive check (qty > 0));
                insert into items values (1, 5);
                """)
            let unique = await #expect(throws: PostgresError.self) {
                try await db.query("insert into items values (1, 2)")
            }
            #expect(unique?.code == .uniqueViolation)
            #expect(unique?.constraint == "items_pkey")
            #expect(unique?.table == "items")
            #expect(unique?.detail?.contains("(id)=(1)") == true)

            let check = await #expect(throws: PostgresError.self) {
                try await db.query("insert into items values (2, -1)")
            }
            #expect(check?.code == .checkViolation)
            #expect(check?.constraint == "qty_positive")

            do {
                try await db.query("insert into items values (\(3), \(0))")
                Issue.record("a check violation was not reported")
            } catch SQLState.checkViolation {
                // `catch SQLState.x` matches any PostgresError with that code.
            }
        }
    }

    @Test func raisedExceptionsKeepMessageDetailAndHint() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("""
                create function raise_expired() returns void language plpgsql as $$
                begin
                  raise exception 'friend code expired' using detail = 'code ABC', hint = 'ask for a new code';
                end $$;
                """)
            let error = await #expect(throws: PostgresError.self) { try await db.query("select raise_expired()") }
            #expect(error?.code == .raiseException)
            #expect(error?.message == "friend code expired")
            #expect(error?.detail == "code ABC")
            #expect(error?.hint == "ask for a new code")
            #expect(error?.context?.contains("raise_expired()") == true)
        }
    }

    @Test func privilegeAndSyntaxErrors() async throws {
        try await withFreshConnection { db async throws in
            let denied = await #expect(throws: PostgresError.self) {
                try await db.acting(as: .anon) { try await $0.query("select count(*) from auth.users") }
            }
            #expect(denied?.code == .insufficientPrivilege)

            let syntax = await #expect(throws: PostgresError.self) { try await db.query("select from where") }
            #expect(syntax?.code == .syntaxError)
            #expect(syntax?.position == 13)
            #expect(syntax?.query == "select from where")

            let missing = await #expect(throws: PostgresError.self) { try await db.query("select * from no_such_table") }
            #expect(missing?.code == .undefinedTable)
            // The connection stays usable after errors.
            let one = try await db.query("select 1").scalar(Int.self)
            #expect(one == 1)
        }
    }

    @Test func badConnectionSettingsSayWhatIsWrong() async throws {
        let bad = #expect(throws: PostgresError.self) { _ = try PostgresConfiguration("postgresql://host/db?nosuchoption=1") }
        #expect(bad?.message.contains("not a PostgreSQL URL") == true)
        #expect(bad?.message.contains("nosuchoption") == true)
        let port = #expect(throws: PostgresError.self) { _ = try PostgresConfiguration("postgresql://host:notaport/db") }
        #expect(port?.message.contains("notaport") == true)

        let configuration = try PostgresConfiguration("host=/nonexistent/socket/dir port=5999 dbname=x user=y")
        let refused = await #expect(throws: PostgresError.self) { _ = try await PostgresConnection.connect(configuration) }
        #expect(refused?.isConnectionFailure == true)
        #expect(refused?.message.contains("/nonexistent/socket/dir/.s.PGSQL.5999") == true)
    }

    @Test func cancellingTheTaskCancelsTheQuery() async throws {
        try await withFreshDatabase { configuration in
            let db = try await PostgresConnection.connect(configuration)
            let watcher = try await PostgresConnection.connect(configuration)
            let started = ContinuousClock.now
            let task = Task { try await db.query("select pg_sleep(30)") }
            // Cancel only once the server runs it: cancelled earlier, it would simply not be sent.
            let running: PostgresQuery = """
                select count(*) from pg_stat_activity
                where datname = current_database() and query = 'select pg_sleep(30)' and state = 'active'
                """
            while try await watcher.query(running).scalar(Int.self) == 0, ContinuousClock.now - started < .seconds(20) {
                try await Task.sleep(for: .milliseconds(20))
            }
            await watcher.close()
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelled < .seconds(10), "the server stopped the sleep, not its end")
            guard case .failure(let error as PostgresError) = result else {
                Issue.record("expected the query to be cancelled, got \(result)")
                return
            }
            #expect(error.code == .queryCanceled)
            #expect(try await db.query("select 2").scalar(Int.self) == 2)
            await db.close()
        }
    }
}
