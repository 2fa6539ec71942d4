import Foundation
import Postgres
import Summit
import SummitDatabase
import SummitTestSupport
import Testing

@Suite struct RemoteProcedureCallTests {
    @Test func callsWithNamedArgumentsAsTheCaller() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("""
                create function public.greet(name text, times int default 1) returns text
                  language sql as $$ select repeat('hi ' || name || ' ', times) || coalesce(auth.uid()::text, 'nobody') $$;
                grant execute on function public.greet(text, int) to authenticated;
                create function public.numbers(upto int) returns setof int language sql as $$ select generate_series(1, upto) $$;
                grant execute on function public.numbers(int) to authenticated;
                create function public.pair() returns table (a int, b text) language sql as $$ select 1, 'x' $$;
                grant execute on function public.pair() to authenticated;
                """)
            let id = UUID()
            let greeting = try await RemoteProcedureCall("greet", arguments: [("name", "ann"), ("times", "2")])
                .call(as: .user(id), on: db)
            #expect(greeting == "\"hi ann hi ann \(id.uuidString.lowercased())\"")
            let set = try await RemoteProcedureCall("public.numbers", arguments: [("upto", "3")]).call(as: .user(id), on: db)
            #expect(set == "[1, 2, 3]")
            let table = try await RemoteProcedureCall("pair", arguments: []).call(as: .user(id), on: db)
            #expect(table == "[{\"a\": 1, \"b\": \"x\"}]")

            let denied = await #expect(throws: PostgresError.self) {
                _ = try await RemoteProcedureCall("greet", arguments: [("name", "x")]).call(as: .anon, on: db)
            }
            #expect(denied?.code == .insufficientPrivilege)
            let missing = await #expect(throws: CLIError.self) {
                _ = try await RemoteProcedureCall("nope", arguments: []).call(as: .anon, on: db)
            }
            #expect(missing?.problem.contains("public.nope") == true)
        }
    }

    @Test func testDatabaseNamesAMissingExtension() async throws {
        try await withFreshConnection { db async throws in
            let error = await #expect(throws: SetupError.self) {
                try await TestDatabases.requireExtension("summit_no_such_extension", on: db)
            }
            #expect(error?.problem.contains("summit_no_such_extension is not installed") == true)
            #expect(error?.fix.contains("apt-get install") == true)
        }
    }
}
