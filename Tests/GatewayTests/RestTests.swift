import Foundation
import Gateway
import Postgres
import Testing

/// `/rest/v1` as the caller: RPCs with named arguments, reads and writes under RLS,
/// the PostgREST subset, and its error shapes.
@Suite struct RestTests {
    @Test func rpcsRunAsTheCaller() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let profile = try await gateway.rpc("social", "my_profile", as: ann)
            #expect(profile.status == 200)
            #expect(((profile.json as? [String: Any])?["profile"] as? [String: Any])?["username"] as? String == "ann")
            try await gateway.befriend(ann, bob)
            let friends = try await gateway.rpc("social", "my_friends", as: bob)
            let rows = try #require(friends.json as? [[String: Any]])
            #expect(rows.map { $0["username"] as? String } == ["ann"])
            // A refusal raised by the function: 400, its code, its hint.
            let again = try await gateway.rpc("social", "send_friend_request", as: ann, ["p_user_id": ann.id.uuidString])
            #expect(again.status == 400)
            let error = try #require(again.json as? [String: Any])
            #expect(error["code"] as? String == "P0001")
            #expect(error["message"] is String)
            #expect(error.keys.sorted() == ["code", "details", "hint", "message"])
        }
    }

    @Test func rpcLookupErrors() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let missing = try await gateway.rpc("social", "no_such_function", as: ann)
            #expect(missing.status == 404)
            #expect((missing.json as? [String: Any])?["code"] as? String == "PGRST202")
            let wrongName = try await gateway.rpc("social", "send_friend_request", as: ann, ["target": ann.id.uuidString])
            #expect(wrongName.status == 404)
            #expect(((wrongName.json as? [String: Any])?["hint"] as? String)?.contains("p_user_id") == true)
            // anon may not call it at all.
            let anon = try await gateway.rpc("social", "my_profile", as: nil)
            #expect(anon.status == 401)
            #expect((anon.json as? [String: Any])?["code"] as? String == "42501")
            // A schema that is not exposed.
            let hidden = try await gateway.rpc("auth", "gateway_user_json", as: ann, ["p_user": ann.id.uuidString])
            #expect(hidden.status == 406)
            #expect((hidden.json as? [String: Any])?["code"] as? String == "PGRST106")
            // A value that is not the parameter's type.
            let badValue = try await gateway.rpc("social", "send_friend_request", as: ann, ["p_user_id": "not a uuid"])
            #expect(badValue.status == 400)
            #expect((badValue.json as? [String: Any])?["code"] as? String == "22P02")
        }
    }

    @Test func tableReadsSeeOnlyWhatRLSAllows() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let profiles = "/rest/v1/profiles?select=id,username&order=username"
            let asAnn = try await gateway.http("GET", profiles, token: ann.accessToken, headers: ["Accept-Profile": "social"])
            #expect(asAnn.status == 200)
            #expect((asAnn.json as? [[String: Any]])?.map { $0["username"] as? String } == ["ann"])
            let asService = try await gateway.http("GET", profiles, token: gateway.serviceKey, apikey: gateway.serviceKey,
                                                   headers: ["Accept-Profile": "social"])
            #expect((asService.json as? [[String: Any]])?.map { $0["username"] as? String } == ["ann", "bob"])
            let asAnon = try await gateway.http("GET", profiles, headers: ["Accept-Profile": "social"])
            #expect(asAnon.status == 401)
            // Friendships: none yet; then one, seen by both parties only.
            try await gateway.befriend(ann, bob)
            let carl = try await gateway.signUp("carl")
            for (account, count) in [(ann, 1), (bob, 1), (carl, 0)] {
                let rows = try await gateway.http("GET", "/rest/v1/friendships?select=user_a,user_b", token: account.accessToken,
                                                  headers: ["Accept-Profile": "social"])
                #expect((rows.json as? [Any])?.count == count)
            }
        }
    }

    @Test func filtersOrderLimitsAndCounts() async throws {
        try await withGateway { gateway in
            let base = "/rest/v1/interests?select=slug,label"
            func slugs(_ query: String, headers: [String: String] = [:]) async throws -> [String] {
                let response = try await gateway.http("GET", base + query, headers: headers.merging(["Accept-Profile": "grids"]) { $1 })
                #expect(response.status == 200 || response.status == 206, "\(query): \(response.text)")
                return (response.json as? [[String: Any]])?.compactMap { $0["slug"] as? String } ?? []
            }
            #expect(try await slugs("&slug=in.(art,music,nope)&order=slug") == ["art", "music"])
            #expect(try await slugs("&sort=gte.2&sort=lt.4&order=sort.desc") == ["art", "nature"])
            #expect(try await slugs("&slug=like.c*&order=slug.asc") == ["city-life", "cooking", "crafts"])
            #expect(try await slugs("&label=ilike.*MUSIC*") == ["music"])
            #expect(try await slugs("&slug=not.in.(art)&sort=lte.3&order=sort") == ["cooking", "nature"])
            #expect(try await slugs("&slug=neq.art&sort=eq.3") == [])
            #expect(try await slugs("&order=sort&limit=2&offset=1") == ["nature", "art"])
            #expect(try await slugs("&slug=is.null") == [])
            let counted = try await gateway.http("GET", base + "&order=sort&limit=3",
                                                 headers: ["Accept-Profile": "grids", "Prefer": "count=exact"])
            let total = try await gateway.sql { try await $0.query("select count(*) from grids.interests").scalar(Int.self) }
            #expect(counted.headers["content-range"] == "0-2/\(total)")
            let ranged = try await gateway.http("GET", base + "&order=sort",
                                                headers: ["Accept-Profile": "grids", "Range": "1-2", "Prefer": "count=exact"])
            #expect(ranged.status == 206)
            #expect(ranged.headers["content-range"] == "1-2/\(total)")
            #expect((ranged.json as? [Any])?.count == 2)
            // One object on request; more than one is an error.
            let one = try await gateway.http("GET", base + "&slug=eq.art",
                                             headers: ["Accept-Profile": "grids", "Accept": "application/vnd.pgrst.object+json"])
            #expect((one.json as? [String: Any])?["slug"] as? String == "art")
            let many = try await gateway.http("GET", base,
                                              headers: ["Accept-Profile": "grids", "Accept": "application/vnd.pgrst.object+json"])
            #expect(many.status == 406)
            #expect((many.json as? [String: Any])?["code"] as? String == "PGRST116")
            // Renames and casts.
            let renamed = try await gateway.http("GET", "/rest/v1/interests?select=name:slug,position:sort::text&slug=eq.art",
                                                 headers: ["Accept-Profile": "grids"])
            #expect((renamed.json as? [[String: Any]])?.first?["position"] as? String == "3")
            #expect((renamed.json as? [[String: Any]])?.first?["name"] as? String == "art")
        }
    }

    @Test func writesUpsertsAndRefusals() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let bob = try await gateway.signUp("bob")
            let id = UUID().uuidString.lowercased()
            let now = "2026-01-10T10:00:00Z"
            let row: [String: Any] = ["id": id, "interest": "art", "created_at": now, "updated_at": now]
            let inserted = try await gateway.http("POST", "/rest/v1/profile_interests?select=id,interest,deleted", token: ann.accessToken,
                                                  headers: ["Content-Profile": "grids", "Prefer": "return=representation"], json: row)
            #expect(inserted.status == 201, "\(inserted.text)")
            #expect((inserted.json as? [[String: Any]])?.first?["interest"] as? String == "art")
            // The same id again: a conflict, unless merged.
            let duplicate = try await gateway.http("POST", "/rest/v1/profile_interests", token: ann.accessToken,
                                                   headers: ["Content-Profile": "grids"], json: row)
            #expect(duplicate.status == 409)
            var changed = row
            changed["deleted"] = true
            changed["updated_at"] = "2026-01-10T11:00:00Z"
            // Ignoring duplicates leaves the row as it was.
            let ignored = try await gateway.http("POST", "/rest/v1/profile_interests?on_conflict=id", token: ann.accessToken,
                                                 headers: ["Content-Profile": "grids", "Prefer": "resolution=ignore-duplicates"], json: [changed])
            #expect(ignored.status == 201, "\(ignored.text)")
            // Merging sets every column sent, interest too, which ann may not update (as with PostgREST): refused.
            let merge = "/rest/v1/profile_interests?on_conflict=id&select=id,deleted"
            let mergeHeaders = ["Content-Profile": "grids", "Prefer": "return=representation,resolution=merge-duplicates"]
            let refused = try await gateway.http("POST", merge, token: ann.accessToken, headers: mergeHeaders, json: [changed])
            #expect(refused.status == 403)
            #expect((refused.json as? [String: Any])?["code"] as? String == "42501")
            // The service role may (naming the owner, as it acts for nobody): the row is merged.
            changed["user_id"] = ann.id.uuidString
            let upsert = try await gateway.http("POST", merge, token: gateway.serviceKey, apikey: gateway.serviceKey,
                                                headers: mergeHeaders, json: [changed])
            #expect(upsert.status == 201, "\(upsert.text)")
            #expect((upsert.json as? [[String: Any]])?.first?["deleted"] as? Bool == true)
            // bob can neither see nor change ann's row.
            let bobSees = try await gateway.http("GET", "/rest/v1/profile_interests?id=eq.\(id)", token: bob.accessToken,
                                                 headers: ["Accept-Profile": "grids"])
            #expect(bobSees.text == "[]")
            let bobPatch = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: bob.accessToken,
                                                  headers: ["Content-Profile": "social", "Prefer": "return=representation"],
                                                  json: ["display_name": "Hacked"])
            #expect(bobPatch.status == 200)
            #expect(bobPatch.text == "[]")
            // ann changes her own display name.
            let annPatch = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)&select=display_name", token: ann.accessToken,
                                                  headers: ["Content-Profile": "social", "Prefer": "return=representation"],
                                                  json: ["display_name": "Ann A."])
            #expect((annPatch.json as? [[String: Any]])?.first?["display_name"] as? String == "Ann A.")
            let name = try await gateway.sql { try await $0.query("select display_name from social.profiles where id = \(ann.id)").scalar(String.self) }
            #expect(name == "Ann A.")
            // A column she may not set, a whole-table change, a delete nobody is granted.
            let username = try await gateway.http("PATCH", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                                  headers: ["Content-Profile": "social"], json: ["username": "queen"])
            #expect(username.status == 403)
            let everyone = try await gateway.http("PATCH", "/rest/v1/profiles", token: ann.accessToken,
                                                  headers: ["Content-Profile": "social"], json: ["display_name": "x"])
            #expect(everyone.status == 400)
            let delete = try await gateway.http("DELETE", "/rest/v1/profiles?id=eq.\(ann.id.uuidString)", token: ann.accessToken,
                                                headers: ["Content-Profile": "social"])
            #expect(delete.status == 403)
            let invalid = try await gateway.http("POST", "/rest/v1/profile_interests", token: ann.accessToken,
                                                 headers: ["Content-Profile": "grids", "Content-Type": "application/json"], body: Array("[1,2]".utf8))
            #expect(invalid.status == 400)
            #expect((invalid.json as? [String: Any])?["code"] as? String == "PGRST102")
        }
    }

    /// A set-returning RPC's rows take select, filters, trees, order, limit/offset, Range and
    /// counts (POST and GET), keep the function's declared column order, and errors name the
    /// function, never an internal alias.
    @Test func rpcResultsTakeModifiers() async throws {
        try await withGateway { gateway in
            let bob = try await gateway.signUp("bob")
            for name in ["ann", "carl", "dan"] { try await gateway.befriend(try await gateway.signUp(name), bob) }
            let base = "/rest/v1/rpc/my_friends"
            let headers = ["Content-Profile": "social", "Accept-Profile": "social"]
            func names(_ method: String, _ query: String, _ extra: [String: String] = [:]) async throws -> (RawResponse, [String]) {
                let response = try await gateway.http(method, base + query, token: bob.accessToken,
                                                      headers: headers.merging(extra) { $1 }, body: method == "POST" ? Array("{}".utf8) : [])
                #expect([200, 206].contains(response.status), "\(method) \(query): \(response.status) \(response.text)")
                return (response, (response.json as? [[String: Any]])?.compactMap { $0["username"] as? String } ?? [])
            }
            for method in ["POST", "GET"] {
                #expect(try await names(method, "?order=username.desc").1 == ["dan", "carl", "ann"])
                #expect(try await names(method, "?select=username&username=neq.carl&order=username").1 == ["ann", "dan"])
                #expect(try await names(method, "?or=(username.eq.ann,username.like.d*)&order=username").1 == ["ann", "dan"])
                let (paged, page) = try await names(method, "?order=username&limit=1&offset=1", ["Prefer": "count=exact"])
                #expect(page == ["carl"])
                #expect(paged.status == 206)
                #expect(paged.headers["content-range"] == "1-1/3")
                let (ranged, rangePage) = try await names(method, "?order=username", ["Range": "1-2", "Prefer": "count=exact"])
                #expect(rangePage == ["carl", "dan"])
                #expect(ranged.headers["content-range"] == "1-2/3")
                let (selected, _) = try await names(method, "?select=username,since&username=eq.ann")
                #expect((selected.json as? [[String: Any]])?.first.map { Set($0.keys) } == ["username", "since"])
            }
            // The declared order of the function's columns, not jsonb's.
            let (plain, _) = try await names("POST", "")
            let text = plain.text
            let positions = ["user_id", "username", "display_name", "avatar_path", "since"].map { text.range(of: "\"\($0)\"")?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil } && positions == positions.sorted { $0! < $1! }, "\(text)")
            let head = try await gateway.http("HEAD", base, token: bob.accessToken, headers: headers.merging(["Prefer": "count=exact"]) { $1 })
            #expect(head.status == 200 && head.headers["content-range"] == "0-2/3")
            // A filter on a column the function does not return: PostgreSQL's 42703, naming the function.
            let missing = try await gateway.http("POST", base + "?nope=eq.1", token: bob.accessToken, headers: headers, json: [String: Any]())
            #expect(missing.status == 400)
            let error = try #require(missing.json as? [String: Any])
            #expect(error["code"] as? String == "42703")
            let message = error["message"] as? String ?? ""
            #expect(message.contains("my_friends") && !message.contains("summit"), "\(message)")
            let table = try await gateway.http("GET", "/rest/v1/interests?nope=eq.1", headers: ["Accept-Profile": "grids"])
            #expect(((table.json as? [String: Any])?["message"] as? String) == "column interests.nope does not exist")
            // One row as an object.
            let one = try await gateway.http("POST", base + "?username=eq.carl", token: bob.accessToken,
                                             headers: headers.merging(["Accept": "application/vnd.pgrst.object+json"]) { $1 }, json: [String: Any]())
            #expect((one.json as? [String: Any])?["username"] as? String == "carl")
        }
    }

    /// GET and HEAD run any function, volatile too, in a read-only transaction: its writes
    /// fail with PostgreSQL's read-only error (405), while POST writes.
    @Test func getRunsFunctionsReadOnly() async throws {
        try await withGateway { gateway in
            try await gateway.sql { db in
                _ = try await db.query("create table public.rest_writes (n int)")
                _ = try await db.query("""
                    create function public.rest_write() returns int language sql volatile
                    as 'insert into public.rest_writes values (1) returning n'
                    """)
                _ = try await db.query("grant insert, select on public.rest_writes to anon")
                _ = try await db.query("grant execute on function public.rest_write() to anon")
            }
            for method in ["GET", "HEAD"] {
                let refused = try await gateway.http(method, "/rest/v1/rpc/rest_write")
                #expect(refused.status == 405, "\(method): \(refused.text)")
                if method == "GET" { #expect((refused.json as? [String: Any])?["code"] as? String == "25006") }
            }
            let written = try await gateway.http("POST", "/rest/v1/rpc/rest_write", json: [String: Any]())
            #expect(written.status == 200 && written.text == "1", "\(written.text)")
            let rows = try await gateway.sql { try await $0.query("select count(*) from public.rest_writes").scalar(Int.self) }
            #expect(rows == 1)
        }
    }

    /// `Prefer: count=exact|planned|estimated` on every verb, with PostgREST's Content-Range:
    /// `*/n` for inserts and deletes, `0-(n-1)/n` for updates.
    @Test func countsOnEveryVerb() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            let now = "2026-01-10T10:00:00Z"
            let ids = [UUID(), UUID()].map { $0.uuidString.lowercased() }
            let rows: [[String: Any]] = zip(ids, ["art", "music"]).map { ["id": $0, "interest": $1, "created_at": now, "updated_at": now] }
            let inserted = try await gateway.http("POST", "/rest/v1/profile_interests", token: ann.accessToken,
                                                  headers: ["Content-Profile": "grids", "Prefer": "count=exact"], json: rows)
            #expect(inserted.status == 201 && inserted.headers["content-range"] == "*/2", "\(inserted.headers) \(inserted.text)")
            let uncounted = try await gateway.http("PATCH", "/rest/v1/profile_interests?interest=eq.art", token: ann.accessToken,
                                                   headers: ["Content-Profile": "grids"], json: ["updated_at": "2026-01-10T11:00:00Z"])
            #expect(uncounted.status == 204 && uncounted.headers["content-range"] == "0-0/*")
            let updated = try await gateway.http("PATCH", "/rest/v1/profile_interests?id=in.(\(ids.joined(separator: ",")))", token: ann.accessToken,
                                                 headers: ["Content-Profile": "grids", "Prefer": "count=exact"], json: ["updated_at": "2026-01-10T12:00:00Z"])
            #expect(updated.headers["content-range"] == "0-1/2", "\(updated.headers)")
            let deleted = try await gateway.http("DELETE", "/rest/v1/profile_interests?interest=eq.music", token: gateway.serviceKey,
                                                 apikey: gateway.serviceKey, headers: ["Content-Profile": "grids", "Prefer": "count=exact"])
            #expect(deleted.status == 204 && deleted.headers["content-range"] == "*/1", "\(deleted.status) \(deleted.headers)")
            let total = try await gateway.sql { try await $0.query("select count(*) from grids.interests").scalar(Int.self) }
            for count in ["exact", "estimated"] {
                for method in ["GET", "HEAD"] {
                    let read = try await gateway.http(method, "/rest/v1/interests?select=slug&order=slug&limit=2",
                                                      headers: ["Accept-Profile": "grids", "Prefer": "count=\(count)"])
                    #expect(read.status == 206 && read.headers["content-range"] == "0-1/\(total)", "\(method) \(count): \(read.headers)")
                }
            }
            let planned = try await gateway.http("GET", "/rest/v1/interests?select=slug&limit=2", headers: ["Accept-Profile": "grids", "Prefer": "count=planned"])
            let estimate = planned.headers["content-range"].flatMap { $0.split(separator: "/").last }.flatMap { Int($0) }
            #expect(planned.headers["content-range"]?.hasPrefix("0-1/") == true && (estimate ?? 0) > 0, "\(planned.headers)")
            let empty = try await gateway.http("GET", "/rest/v1/interests?slug=eq.none", headers: ["Accept-Profile": "grids", "Prefer": "count=exact"])
            #expect(empty.status == 200 && empty.headers["content-range"] == "*/0")
            let past = try await gateway.http("GET", "/rest/v1/interests?offset=1000", headers: ["Accept-Profile": "grids", "Prefer": "count=exact"])
            #expect(past.status == 416 && (past.json as? [String: Any])?["code"] as? String == "PGRST103")
            // A column the table does not have is PostgREST's PGRST204, before any statement.
            for method in ["POST", "PATCH"] {
                let unknown = try await gateway.http(method, "/rest/v1/profile_interests?id=eq.\(ids[0])", token: ann.accessToken,
                                                     headers: ["Content-Profile": "grids"], json: ["intrest": "art"])
                #expect(unknown.status == 400 && (unknown.json as? [String: Any])?["code"] as? String == "PGRST204", "\(unknown.text)")
                #expect((unknown.json as? [String: Any])?["message"] as? String == "Could not find the 'intrest' column of 'profile_interests' in the schema cache")
            }
        }
    }

    /// SQL in every place a client can put text: values, columns, tables, orders, casts,
    /// lists and schemas. Values are parameters and names are quoted, so none of it runs.
    @Test func sqlInjectionGoesNowhere() async throws {
        try await withGateway { gateway in
            let ann = try await gateway.signUp("ann")
            _ = try await gateway.signUp("bob")
            let payloads = ["' or '1'='1", "x'; drop table social.profiles; --", "\") or true --", "1) or (1=1", "$1", "\\", "%' --"]
            for payload in payloads {
                let encoded = payload.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let queries = [
                    "/rest/v1/profiles?username=eq.\(encoded)",
                    "/rest/v1/profiles?username=like.\(encoded)",
                    "/rest/v1/profiles?username=in.(ann,\(encoded))",
                    "/rest/v1/profiles?username=not.eq.\(encoded)&id=eq.\(ann.id.uuidString)",
                    "/rest/v1/profiles?\(encoded)=eq.ann",
                    "/rest/v1/profiles?select=\(encoded)",
                    "/rest/v1/profiles?order=\(encoded)",
                    "/rest/v1/profiles?select=id::\(encoded)",
                    "/rest/v1/\(encoded)?select=*",
                ]
                for query in queries {
                    let response = try await gateway.http("GET", query, token: ann.accessToken, headers: ["Accept-Profile": "social"])
                    #expect([200, 400, 404].contains(response.status), "\(query) → \(response.status) \(response.text)")
                    if response.status == 200, let rows = response.json as? [[String: Any]] {
                        // Never more than ann's own row: RLS still decides.
                        #expect(rows.allSatisfy { ($0["id"] as? String).map { $0 == ann.id.uuidString.lowercased() } ?? true })
                    } else if response.status != 200 {
                        #expect((response.json as? [String: Any])?["message"] is String)
                    }
                }
                let rpc = try await gateway.rpc("social", "search_usernames", as: ann, ["p_query": payload])
                #expect([200, 400].contains(rpc.status), "\(rpc.text)")
                let profile = try await gateway.http("GET", "/rest/v1/profiles", token: ann.accessToken,
                                                     headers: ["Accept-Profile": payload.contains(",") ? "x" : payload])
                #expect(profile.status == 406)
            }
            let intact = try await gateway.sql { try await $0.query("select count(*) from social.profiles").scalar(Int.self) }
            #expect(intact == 2)
        }
    }
}
