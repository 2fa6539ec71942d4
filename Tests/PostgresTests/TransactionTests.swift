import Foundation
import Postgres
import SummitTestSupport
import Testing

struct Boom: Error {}

@Suite struct TransactionTests {
    @Test func aThrowingTransactionLeavesNothingBehind() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table notes (body text not null)")
            await #expect(throws: Boom.self) {
                try await db.transaction { db in
                    try await db.query("insert into notes values ('kept?')")
                    #expect(try await db.query("select count(*) from notes").scalar(Int.self) == 1)
                    throw Boom()
                }
            }
            #expect(try await db.query("select count(*) from notes").scalar(Int.self) == 0)
            #expect(await db.isIdle)

            let value = try await db.transaction { db in
                try await db.query("insert into notes values ('kept')")
                return 42
            }
            #expect(value == 42)
            #expect(try await db.query("select count(*) from notes").scalar(Int.self) == 1)
        }
    }

    @Test func aServerErrorRollsBackTheWholeTransaction() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table notes (body text not null)")
            await #expect(throws: PostgresError.self) {
                try await db.transaction { db in
                    try await db.query("insert into notes values ('first')")
                    try await db.query("insert into notes values (null)")
                }
            }
            #expect(try await db.query("select count(*) from notes").scalar(Int.self) == 0)
        }
    }

    @Test func nestedTransactionsUseSavepoints() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("create table notes (body text not null)")
            try await db.transaction { db in
                try await db.query("insert into notes values ('outer')")
                _ = try? await db.transaction { db in
                    try await db.query("insert into notes values ('inner')")
                    throw Boom()
                }
                try await db.transaction { db in try await db.query("insert into notes values ('inner kept')") }
            }
            let bodies = try await db.query("select body from notes order by body").decode(String.self)
            #expect(bodies == ["inner kept", "outer"])
        }
    }

    @Test func actingAsAUserSetsRoleAndClaimsForTheTransactionOnly() async throws {
        try await withFreshConnection { db async throws in
            let ann = try await db.query("insert into auth.users (email) values ('ann@example.test') returning id").scalar(UUID.self)
            struct Identity: Decodable { var uid: UUID?; var role: String?; var currentUser: String; var claimSub: String? }
            let read: PostgresQuery = """
                select auth.uid() as uid, auth.role() as role, current_user::text as current_user,
                       current_setting('request.jwt.claim.sub', true) as claim_sub
                """
            let inside = try await db.acting(as: .user(ann)) { db in try await db.query(read).first(as: Identity.self)! }
            #expect(inside.uid == ann)
            #expect(inside.role == "authenticated")
            #expect(inside.currentUser == "authenticated")
            #expect(inside.claimSub == ann.uuidString.lowercased())

            let after = try await db.query(read).first(as: Identity.self)!
            #expect(after.uid == nil)
            #expect(after.role == nil)
            #expect(after.currentUser != "authenticated")

            let anon = try await db.acting(as: .anon) { db in try await db.query(read).first(as: Identity.self)! }
            #expect(anon.uid == nil)
            #expect(anon.currentUser == "anon")
            let service = try await db.acting(as: .serviceRole) { db in try await db.query(read).first(as: Identity.self)! }
            #expect(service.currentUser == "service_role")
            #expect(service.role == "service_role")

            // A nested caller ends with its block; the outer one is back afterwards.
            let bob = UUID()
            let (innerUID, outerUID) = try await db.acting(as: .user(ann)) { db in
                let inner = try await db.acting(as: .user(bob)) { db in try await db.query("select auth.uid()").scalar(UUID?.self) }
                return (inner, try await db.query("select auth.uid()").scalar(UUID?.self))
            }
            #expect(innerUID == bob)
            #expect(outerUID == ann)

            // Extra claims reach auth.jwt().
            let email = try await db.acting(as: .user(ann, claims: ["email": "ann@example.test"])) { db in
                try await db.query("select auth.jwt() ->> 'email'").scalar(String.self)
            }
            #expect(email == "ann@example.test")
        }
    }

    @Test func rowLevelSecuritySeesTheCaller() async throws {
        try await withFreshConnection { db async throws in
            try await db.simpleQuery("""
                create table diary (owner uuid not null default auth.uid(), body text);
                alter table diary enable row level security;
                create policy own on diary using (owner = (select auth.uid())) with check (owner = (select auth.uid()));
                grant select, insert on diary to authenticated;
                """)
            let ann = UUID()
            let bob = UUID()
            try await db.acting(as: .user(ann)) { db in try await db.query("insert into diary (body) values ('ann private')") }
            try await db.acting(as: .user(bob)) { db in try await db.query("insert into diary (body) values ('bob private')") }
            let bobSees = try await db.acting(as: .user(bob)) { db in
                try await db.query("select body from diary").decode(String.self)
            }
            #expect(bobSees == ["bob private"])
            let forged = await #expect(throws: PostgresError.self) {
                try await db.acting(as: .user(bob)) { db in
                    try await db.query("insert into diary (owner, body) values (\(ann), 'forged')")
                }
            }
            #expect(forged?.code == .insufficientPrivilege)
        }
    }
}
