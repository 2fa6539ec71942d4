import Foundation
import Gateway
import Postgres
import Testing

/// The PostgREST query language beyond plain filters: logic trees, the array, range,
/// jsonb and text search operators, embedded resources under each table's own RLS,
/// CSV, and lookup hints that reveal nothing the caller may not call.
extension RestTests {
    /// A table with one column of each kind the operators work on, readable by anon.
    static func makeOperatorTable(_ gateway: GatewayHarness) async throws {
        try await gateway.sql { db in
            _ = try await db.query("""
                create table public.rest_ops (id int primary key, name text, tags text[], doc jsonb, during tsrange, body tsvector)
                """)
            _ = try await db.query("""
                insert into public.rest_ops values
                  (1, 'Albania', '{open,high}', '{"a": 1, "b": {"c": 2}}', '[2000-01-01 13:00, 2000-01-01 15:00)', to_tsvector('english', 'the cats are running')),
                  (2, 'Algeria', '{open,low}', '{"a": 2}', '[2000-01-02 09:00, 2000-01-02 10:00)', to_tsvector('english', 'a dog sleeps')),
                  (3, 'Spain', '{closed,low}', '{}', '[2000-01-03 09:00, 2000-01-03 10:00)', to_tsvector('english', 'fat cats and dogs'))
                """)
            _ = try await db.query("grant select on public.rest_ops to anon")
        }
    }

    @Test func operatorsOnArraysRangesJSONAndText() async throws {
        try await withGateway { gateway in
            try await Self.makeOperatorTable(gateway)
            func ids(_ query: String) async throws -> [Int] {
                let response = try await gateway.http("GET", "/rest/v1/rest_ops?select=id&order=id&" + query)
                #expect(response.status == 200, "\(query): \(response.text)")
                return (response.json as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? []
            }
            let cases: [(String, [Int])] = [
                ("tags=cs.{open}", [1, 2]), ("tags=cd.{open,low,high}", [1, 2]), ("tags=ov.{high,closed}", [1, 3]),
                ("doc=cs.%7B%22b%22:%7B%22c%22:2%7D%7D", [1]), ("doc=cd.%7B%22a%22:2,%22z%22:0%7D", [2, 3]),
                ("during=cs.%5B2000-01-01%2013:00,2000-01-01%2013:30)", [1]),
                ("during=sl.(2000-01-02%2011:00,2000-01-02%2012:00)", [1, 2]), ("during=sr.(2000-01-02%2008:00,2000-01-02%2009:00)", [2, 3]),
                ("during=nxl.(2000-01-02%2008:30,2000-01-02%2009:30)", [2, 3]), ("during=nxr.(2000-01-01%2014:00,2000-01-01%2016:00)", [1]),
                ("during=adj.(2000-01-01%2012:00,2000-01-01%2013:00)", [1]), ("during=ov.%5B2000-01-01%2012:45,2000-01-01%2013:15)", [1]),
                ("name=like(any).%7BAl*,*ain%7D", [1, 2, 3]), ("name=like(all).%7BA*,*a%7D", [1, 2]), ("name=ilike(any).%7B*SPA*%7D", [3]),
                ("name=not.like(any).%7BAlb*,Sp*%7D", [2]), ("id=gt(any).%7B2,9%7D", [3]), ("name=match.^Al", [1, 2]), ("name=imatch.SPAIN", [3]),
                ("body=fts.cat", [1, 3]), ("body=fts(english).cats%20%26%20dogs", [3]), ("body=plfts(english).fat%20cats", [3]),
                ("body=phfts(english).cats%20running", []), ("body=phfts(english).cats%20are%20running", [1]), ("body=wfts(english).cat%20-dog", [1]),
                ("body=not.fts.dog", [1]), ("name=isdistinct.Spain", [1, 2]), ("id=in.()", []),
            ]
            for (query, expected) in cases {
                #expect(try await ids(query) == expected, "\(query)")
            }
            let badModifier = try await gateway.http("GET", "/rest/v1/rest_ops?name=neq(any).%7Ba%7D")
            #expect(badModifier.status == 400 && (badModifier.json as? [String: Any])?["code"] as? String == "PGRST100")
        }
    }

    @Test func logicTreesNestAndNegate() async throws {
        try await withGateway { gateway in
            func slugs(_ query: String) async throws -> [String] {
                let response = try await gateway.http("GET", "/rest/v1/interests?select=slug&order=slug&" + query, headers: ["Accept-Profile": "grids"])
                #expect(response.status == 200, "\(query): \(response.text)")
                return (response.json as? [[String: Any]])?.compactMap { $0["slug"] as? String } ?? []
            }
            #expect(try await slugs("or=(slug.eq.art,slug.eq.music)") == ["art", "music"])
            #expect(try await slugs("or=(sort.lt.2,and(sort.gte.3,sort.lte.4))") == ["art", "cooking", "music"])
            #expect(try await slugs("not.or=(sort.gt.2)") == ["cooking", "nature"])
            #expect(try await slugs("and=(sort.lte.4,not.or(slug.eq.art,slug.in.(music,nature)))") == ["cooking"])
            #expect(try await slugs("or=(label.eq.%22Time%20with%20friends%22,slug.eq.art)&sort=gt.2") == ["art", "friends"])
            #expect(try await slugs("or=(slug.like.c*)&or=(sort.eq.1,sort.eq.13)") == ["cooking", "crafts"])
            for broken in ["or=slug.eq.art", "or=(slug.eq.art", "or=(slug.nope.1)", "or=()"] {
                let response = try await gateway.http("GET", "/rest/v1/interests?" + broken, headers: ["Accept-Profile": "grids"])
                #expect(response.status == 400 && (response.json as? [String: Any])?["code"] as? String == "PGRST100", "\(broken): \(response.text)")
            }
            let deep = "or=(" + String(repeating: "and(", count: 40) + "slug.eq.art" + String(repeating: ")", count: 41)
            #expect(try await gateway.http("GET", "/rest/v1/interests?" + deep, headers: ["Accept-Profile": "grids"]).status == 400)
        }
    }

    /// Embedding follows foreign keys both ways; each embedded table is read as the caller,
    /// so its own RLS decides: ann's friendship embeds her own profile, not bob's.
    @Test func embeddedResourcesReadUnderTheirOwnRLS() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            try await gateway.befriend(ann, bob)
            let (annIsA, social) = (ann.id.uuidString.lowercased() < bob.id.uuidString.lowercased(), ["Accept-Profile": "social"])
            let mine = annIsA ? "user_a" : "user_b", theirs = annIsA ? "user_b" : "user_a"
            let both = try await gateway.http("GET", "/rest/v1/friendships?select=me:profiles!\(mine)(username),them:profiles!\(theirs)(username)",
                                              token: ann.accessToken, headers: social)
            let row = try #require((both.json as? [[String: Any]])?.first, "\(both.text)")
            #expect((row["me"] as? [String: Any])?["username"] as? String == "ann")
            #expect(row["them"] is NSNull, "bob's profile is not ann's to read: \(both.text)")
            let inner = try await gateway.http("GET", "/rest/v1/friendships?select=created_at,profiles!\(theirs)!inner(username)",
                                               token: ann.accessToken, headers: social)
            #expect(inner.text == "[]", "\(inner.text)")
            let ambiguous = try await gateway.http("GET", "/rest/v1/friendships?select=profiles(username)", token: ann.accessToken, headers: social)
            #expect(ambiguous.status == 300 && (ambiguous.json as? [String: Any])?["code"] as? String == "PGRST201")
            let unknown = try await gateway.http("GET", "/rest/v1/profiles?select=id,nothing(*)", token: ann.accessToken, headers: social)
            #expect(unknown.status == 400 && (unknown.json as? [String: Any])?["code"] as? String == "PGRST200")
            // One-to-many from profiles: ann's friendships through either column.
            let many = try await gateway.http("GET", "/rest/v1/profiles?select=username,friendships!\(mine)(created_at)", token: ann.accessToken, headers: social)
            #expect(((many.json as? [[String: Any]])?.first?["friendships"] as? [Any])?.count == 1, "\(many.text)")

            // Templates and their squares: order, limit and filters inside the embed, a related order outside.
            let grids = ["Accept-Profile": "grids"]
            let templates = try await gateway.http("GET", "/rest/v1/grids?select=title,squares:grid_squares(position)&squares.order=position.desc"
                                                   + "&squares.limit=2&squares.position=lt.5&kind=eq.starter&order=title&limit=2",
                                                   token: ann.accessToken, headers: grids)
            let first = try #require((templates.json as? [[String: Any]])?.first, "\(templates.text)")
            #expect((first["squares"] as? [[String: Any]])?.compactMap { $0["position"] as? Int } == [4, 3], "\(templates.text)")
            let orTree = try await gateway.http("GET", "/rest/v1/grids?select=title,grid_squares!inner(position)&grid_squares.or=(position.eq.0,position.eq.2)&grid_squares.order=position&limit=1",
                                                token: ann.accessToken, headers: grids)
            #expect(((orTree.json as? [[String: Any]])?.first?["grid_squares"] as? [[String: Any]])?.compactMap { $0["position"] as? Int } == [0, 2],
                    "\(orTree.text)")
            let related = try await gateway.http("GET", "/rest/v1/grid_squares?select=position,grids(title)&position=eq.0&order=grids(title).desc",
                                                 token: ann.accessToken, headers: grids)
            let titles = (related.json as? [[String: Any]])?.compactMap { ($0["grids"] as? [String: Any])?["title"] as? String } ?? []
            #expect(!titles.isEmpty && titles == titles.sorted(by: >), "\(related.text)")
            // anon reads no templates, so nothing embeds either (42501: not granted).
            let anon = try await gateway.http("GET", "/rest/v1/grid_squares?select=position,grids(title)&limit=1", headers: grids)
            #expect(anon.status == 401)
            let notEmbedded = try await gateway.http("GET", "/rest/v1/grids?select=title&grid_squares.position=eq.1", token: ann.accessToken, headers: grids)
            #expect(notEmbedded.status == 400 && (notEmbedded.json as? [String: Any])?["code"] as? String == "PGRST108")
            let toManyOrder = try await gateway.http("GET", "/rest/v1/grids?select=title,grid_squares(position)&order=grid_squares(position)",
                                                     token: ann.accessToken, headers: grids)
            #expect(toManyOrder.status == 400 && (toManyOrder.json as? [String: Any])?["code"] as? String == "PGRST118")
        }
    }

    @Test func csvAndHintsThatRevealNothing() async throws {
        try await withGateway { gateway in
            try await Self.makeOperatorTable(gateway)
            let csv = try await gateway.http("GET", "/rest/v1/interests?select=slug,label&slug=in.(art,friends)&order=slug",
                                             headers: ["Accept-Profile": "grids", "Accept": "text/csv"])
            #expect(csv.status == 200 && csv.headers["content-type"]?.hasPrefix("text/csv") == true)
            #expect(csv.text == "slug,label\nart,Art\nfriends,\"Time with friends\"", "\(csv.text.debugDescription)")
            let stripped = try await gateway.http("GET", "/rest/v1/rest_ops?select=id,tags&id=eq.1",
                                                  headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"])
            #expect(stripped.status == 200)
            try await gateway.sql { _ = try await $0.query("update public.rest_ops set tags = null where id = 1") }
            let nulls = try await gateway.http("GET", "/rest/v1/rest_ops?select=id,tags&id=eq.1",
                                               headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"])
            #expect(nulls.text == #"[{"id":1}]"#, "\(nulls.text)")
            let json = try await gateway.http("GET", "/rest/v1/interests?select=slug", headers: ["Accept-Profile": "grids", "Accept": "text/html"])
            #expect(json.status == 406 && (json.json as? [String: Any])?["code"] as? String == "PGRST107")
            // Plans are off unless configured.
            let plan = try await gateway.http("GET", "/rest/v1/interests", headers: ["Accept-Profile": "grids", "Accept": "application/vnd.pgrst.plan+json"])
            #expect(plan.status == 406)
            // anon may not execute send_friend_request: a wrong argument name gets no list of its parameters.
            let anon = try await gateway.rpc("social", "send_friend_request", as: nil, ["target": UUID().uuidString])
            #expect(anon.status == 404)
            let hint = (anon.json as? [String: Any])?["hint"] as? String ?? ""
            #expect(!hint.contains("p_user_id"), "\(hint)")
            let ann = try await gateway.signUp("ann")
            let annHint = try await gateway.rpc("social", "send_friend_request", as: ann, ["target": UUID().uuidString])
            #expect(((annHint.json as? [String: Any])?["hint"] as? String)?.contains("p_user_id") == true)
        }
    }

    @Test func plansWhenConfigured() async throws {
        try await withGateway(configure: { $0.restPlanEnabled = true }) { gateway in
            let plan = try await gateway.http("GET", "/rest/v1/interests?select=slug&slug=eq.art",
                                              headers: ["Accept-Profile": "grids", "Accept": "application/vnd.pgrst.plan+json; options=analyze"])
            #expect(plan.status == 200, "\(plan.text)")
            let top = ((plan.json as? [[String: Any]])?.first?["Plan"] as? [String: Any])?["Node Type"] as? String
            #expect(top == "Aggregate", "\(plan.text)")
            let text = try await gateway.http("GET", "/rest/v1/interests?select=slug&slug=eq.art",
                                              headers: ["Accept-Profile": "grids", "Accept": "application/vnd.pgrst.plan"])
            #expect(text.text.contains("interests"), "\(text.text)")
        }
    }
}
