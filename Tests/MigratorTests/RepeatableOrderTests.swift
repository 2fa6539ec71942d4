import Foundation
@testable import Migrator
import Testing

/// `sql/order.txt` gives the order; each object is defined in one file only.
/// Checked when the files are read, before anything touches a database.
@Suite struct RepeatableOrderTests {
    @Test func filesApplyInTheListedOrderAcrossFolders() throws {
        try withTemporaryFolderSync { folder in
            let project = try Project(folder)
            try project.write("sql/social/b.sql", "select 1;")
            try project.write("sql/grids/a.sql", "select 2;")
            try project.write("sql/order.txt", "# the order\ngrids/a.sql\n\nsocial/b.sql  # after a\n")
            #expect(try project.source().repeatables.map(\.fileName) == ["grids/a.sql", "social/b.sql"])
        }
    }

    @Test func theOrderMustListEveryFileOnceAndOnlyFilesThatExist() throws {
        try withTemporaryFolderSync { folder in
            let project = try Project(folder)
            try project.write("sql/social/a.sql", "select 1;")
            try project.writeUnlisted("sql/social/stray.sql", "select 2;")
            #expect(throws: MigrationError.unlisted("social/stray.sql")) { try project.source() }
            try project.write("sql/order.txt", "social/a.sql\nsocial/stray.sql\nsocial/a.sql\n")
            #expect(throws: MigrationError.listedTwice("social/a.sql", first: 1, second: 3)) { try project.source() }
            try project.write("sql/order.txt", "social/a.sql\nsocial/stray.sql\nsocial/gone.sql\n")
            #expect(throws: MigrationError.listedButMissing("social/gone.sql", line: 3)) { try project.source() }
            try project.remove("sql/order.txt")
            #expect(throws: MigrationError.missingOrder) { try project.source() }
            #expect(MigrationError.missingOrder.description.contains("one path per line"))
        }
    }

    @Test func anObjectDefinedInTwoFilesIsRefusedNamingBoth() throws {
        try withTemporaryFolderSync { folder in
            let project = try Project(folder)
            try project.write("sql/grids/a.sql", """
                -- the first
                create or replace function private.after(p_id uuid, p_limit int default 20, out total bigint)
                  language sql as 'select 1';
                """)
            try project.write("sql/grids/b.sql", "select 1;\n\ncreate function PRIVATE.After(other uuid, int) returns int language sql as 'select 1';")
            let error = try #require(throws: MigrationError.self) { try project.source() }
            #expect(error == .definedTwice("function private.after(uuid, int)", first: "sql/grids/a.sql", firstLine: 2,
                                           second: "sql/grids/b.sql", secondLine: 3))
            #expect(error.description.contains("silently replaces it"))
        }
    }

    @Test func overloadsOtherTablesAndBodiesAreNotDefinitionsTwice() throws {
        try withTemporaryFolderSync { folder in
            let project = try Project(folder)
            try project.write("sql/a.sql", """
                create function f(p int) returns int language sql as 'select 1';
                create trigger t before insert on grids.moments for each row execute function f();
                create policy read on grids.moments for select using (true);
                create view v as select 1;
                """)
            try project.write("sql/b.sql", """
                create function f(p text) returns int language sql as 'select 1';
                create trigger t before insert on grids.photos for each row execute function f();
                create policy read on grids.photos for select using (true);
                do $$ begin execute 'create view v as select 2'; end $$;
                create function g() returns void language plpgsql as $$ begin create view v as select 3; end $$;
                """)
            #expect(try project.source().repeatables.count == 2)
            try project.write("sql/c.sql", "drop policy if exists read on grids.photos;\ncreate policy read on grids.photos for all using (true);")
            #expect(throws: MigrationError.definedTwice("policy read on grids.photos", first: "sql/b.sql", firstLine: 3,
                                                       second: "sql/c.sql", secondLine: 2)) { try project.source() }
        }
    }

    @Test func argumentTypesDropModesNamesDefaultsModifiersAndOutArguments() {
        #expect(SQLDefinitions.argumentTypes("p_user uuid, p_limit int default 20, out total bigint") == ["uuid", "int"])
        #expect(SQLDefinitions.argumentTypes("double precision, p_at timestamp with time zone = now(), variadic p_ids uuid[]")
                == ["double precision", "timestamp with time zone", "uuid[]"])
        #expect(SQLDefinitions.argumentTypes("p numeric(10, 2), inout q text") == ["numeric", "text"])
        #expect(SQLDefinitions.argumentTypes("") == [])
    }
}
