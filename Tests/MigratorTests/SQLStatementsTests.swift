@testable import Migrator
import Testing

@Suite struct SQLStatementsTests {
    @Test func splitsOnlyAtTopLevelSemicolons() {
        let sql = """
            -- a comment; with a semicolon
            create table t (note text default 'a;b');
            /* block; comment */ insert into t values ($$x;y$$);
            create function f() returns int language plpgsql as $body$
            begin
              return 1;
            end;
            $body$;
            select "odd;name" from t
            """
        let statements = SQLStatements.split(sql)
        #expect(statements.map(\.line) == [2, 3, 4, 9])
        #expect(statements[0].text == "create table t (note text default 'a;b')")
        #expect(statements[1].text.hasSuffix("($$x;y$$)"))
        #expect(statements[2].text.hasSuffix("$body$"))
        #expect(statements[3].text == "select \"odd;name\" from t")
    }

    @Test func dollarSignsInIdentifiersAndParametersAreNotQuotes() {
        let statements = SQLStatements.split("select $1, a$b from t; select 2;")
        #expect(statements.count == 2)
    }
}
