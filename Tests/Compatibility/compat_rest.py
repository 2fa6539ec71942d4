"""PostgREST's query language through the real `supabase` client, on the app's own schemas.

Each step uses the client exactly as an app would: modifiers and counts on a
set-returning RPC, GET and HEAD calls in a read-only transaction, logic trees,
embedded resources (each read under its own RLS), the array, jsonb-free range-free
operators the app schemas offer, text search, CSV and errors. Run by
CompatibilitySuiteTests as `python compat_rest.py CONFIG.json` (support.py says
what CONFIG.json holds).
"""

import asyncio
import uuid

from support import CONFIG, check, fail, finish, sign_up
from postgrest.exceptions import APIError


async def main():
    a, b = CONFIG["a"], CONFIG["b"]
    name = uuid.uuid4().hex[:6]
    bob, bob_id = await sign_up(a, f"bob{name}")
    friends = []
    for who in ("ann", "carl", "dan"):
        c, user_id = await sign_up(b, f"{who}{name}")
        await c.schema("social").rpc("send_friend_request", {"p_user_id": bob_id}).execute()
        await bob.schema("social").rpc("send_friend_request", {"p_user_id": user_id}).execute()
        friends.append((c, user_id))
    ann, ann_id = friends[0]
    names = [f"ann{name}", f"carl{name}", f"dan{name}"]
    social = bob.schema("social")

    # --- a set-returning RPC takes select, filters, order, limits and counts -------------
    page = await social.rpc("my_friends", {}, count="exact").select("username").order("username", desc=True).limit(2).execute()
    check([r["username"] for r in page.data] == names[::-1][:2] and page.count == 3,
          "my_friends: select, order, limit and an exact count", f"{page.data} {page.count}")
    ranged = await social.rpc("my_friends", {}).select("username").order("username").range(1, 2).execute()
    check([r["username"] for r in ranged.data] == names[1:], "my_friends: range", str(ranged.data))
    tree = await social.rpc("my_friends", {}).select("username").or_(f"username.eq.{names[0]},username.eq.{names[2]}").order("username").execute()
    check([r["username"] for r in tree.data] == [names[0], names[2]], "my_friends: an or= tree", str(tree.data))
    got = await social.rpc("my_friends", {}, get=True, count="exact").select("username").neq("username", names[1]).order("username").execute()
    check([r["username"] for r in got.data] == [names[0], names[2]] and got.count == 2, "my_friends by GET: filters and count", str(got.data))
    head = await social.rpc("my_friends", {}, head=True, count="exact").execute()
    check(head.count == 3 and head.data == [], "my_friends by HEAD: the count alone", f"{head.data} {head.count}")
    one = await social.rpc("my_friends", {}).select("username,since").eq("username", names[1]).single().execute()
    check(list(one.data.keys()) == ["username", "since"], "single() on an RPC's rows, columns in the order selected", str(one.data))
    plain = await social.rpc("my_friends", {}).execute()
    check(list(plain.data[0].keys()) == ["user_id", "username", "display_name", "avatar_path", "since"],
          "an RPC's columns come in the function's declared order", str(plain.data[0]))
    try:
        await social.rpc("my_friends", {}).eq("nope", 1).execute()
        fail("a filter on a column the RPC does not return is an error", "it answered")
    except APIError as error:
        check(error.code == "42703" and "my_friends" in error.message and "summit" not in error.message,
              "a filter on a missing column is 42703, naming the function", str(error))

    # --- GET on a volatile function: it runs, read-only ----------------------------------
    try:
        await ann.schema("social").rpc("remove_friend", {"p_user_id": bob_id}, get=True).execute()
        fail("a GET may not change data", "it answered")
    except APIError as error:
        check(error.code == "25006", "a volatile function called by GET fails at its write (25006)", str(error))
    still = await social.rpc("my_friends", {}, count="exact").execute()
    check(still.count == 3, "the read-only call changed nothing")

    # --- embedded resources, each under its own RLS ------------------------------------
    mine, theirs = ("user_a", "user_b") if ann_id < bob_id else ("user_b", "user_a")
    rows = await ann.schema("social").table("friendships").select(f"me:profiles!{mine}(username),them:profiles!{theirs}(username)").execute()
    check(rows.data[0]["me"] == {"username": names[0]} and rows.data[0]["them"] is None,
          "friendships embed profiles: ann's own, and bob's hidden by its RLS", str(rows.data))
    inner = await ann.schema("social").table("friendships").select(f"created_at,profiles!{theirs}!inner(username)").execute()
    check(inner.data == [], "!inner drops the row whose embedded profile RLS hides", str(inner.data))
    try:
        await ann.schema("social").table("friendships").select("profiles(username)").execute()
        fail("two foreign keys to profiles are ambiguous", "it answered")
    except APIError as error:
        check(error.code == "PGRST201", "two foreign keys to profiles need a hint (PGRST201)", str(error))
    grids = ann.schema("grids")
    squares = await (grids.table("grids").select("title,squares:grid_squares(position,prompt)").eq("kind", "starter")
                     .order("position", desc=True, foreign_table="squares").limit(3, foreign_table="squares").order("title").limit(2).execute())
    check(len(squares.data) == 2 and all(len(g["squares"]) == 3 for g in squares.data)
          and [s["position"] for s in squares.data[0]["squares"]] == sorted([s["position"] for s in squares.data[0]["squares"]], reverse=True),
          "grids embed their squares (alias, order and limit on the embedded table)", str(squares.data)[:300])
    picked = await (grids.table("grids").select("title,grid_squares!inner(position)").or_("position.eq.0,position.eq.1", reference_table="grid_squares")
                    .order("position", foreign_table="grid_squares").limit(1).execute())
    check([s["position"] for s in picked.data[0]["grid_squares"]] == [0, 1], "an or= tree on the embedded table", str(picked.data))
    back = await grids.table("grid_squares").select("position,grids(title)").eq("position", 0).execute()
    check(len(back.data) >= 1 and all(isinstance(r["grids"], dict) and r["grids"]["title"] for r in back.data),
          "squares embed their grid (many-to-one, an object)", str(back.data)[:300])

    # --- operators on the app's columns ----------------------------------------------------
    year = await grids.table("grids").select("title").contains("season_months", [6, 7]).execute()
    check([r["title"] for r in year.data] == ["Through the year"], "cs on an array column", str(year.data))
    within = await grids.table("grids").select("title").contained_by("season_months", list(range(1, 13))).execute()
    check("Through the year" in [r["title"] for r in within.data], "cd on an array column", str(within.data))
    overlap = await grids.table("grids").select("title").overlaps("season_months", [12, 13]).execute()
    check([r["title"] for r in overlap.data] == ["Through the year"], "ov on an array column", str(overlap.data))
    kitchen = await grids.table("grids").select("title").text_search("search_doc", "kitchen", {"config": "simple"}).execute()
    check("Kitchen table" in [r["title"] for r in kitchen.data], "fts(simple) on a tsvector", str(kitchen.data))
    words = await grids.table("grids").select("title").text_search("search_doc", "kitchen table", {"type": "plain", "config": "simple"}).execute()
    check("Kitchen table" in [r["title"] for r in words.data], "plfts on a tsvector", str(words.data))
    interests = grids.table("interests").select("slug")
    any_of = await interests.like_any_of("slug", "co*,mu*").order("slug").execute()
    check([r["slug"] for r in any_of.data] == ["cooking", "music"], "like(any)", str(any_of.data))
    all_of = await grids.table("interests").select("slug").ilike_all_of("label", "C*,*G").order("slug").execute()
    check([r["slug"] for r in all_of.data] == ["cooking"], "ilike(all)", str(all_of.data))
    nested = await grids.table("interests").select("slug").or_("sort.eq.1,and(sort.gte.3,sort.lte.4)").order("slug").execute()
    check([r["slug"] for r in nested.data] == ["art", "cooking", "music"], "a nested or/and tree", str(nested.data))
    negated = await grids.table("interests").select("slug").not_.or_("sort.gt.2").order("slug").execute()
    check([r["slug"] for r in negated.data] == ["cooking", "nature"], "not.or=", str(negated.data))

    # --- CSV and counts on writes -----------------------------------------------------------
    csv = await grids.table("interests").select("slug,label").in_("slug", ["art", "friends"]).order("slug").csv().execute()
    check(csv.data == 'slug,label\nart,Art\nfriends,"Time with friends"', "CSV", repr(csv.data))
    now = "2026-01-10T10:00:00Z"
    row = {"id": str(uuid.uuid4()), "interest": "art", "created_at": now, "updated_at": now}
    added = await grids.table("profile_interests").insert(row, count="exact").execute()
    check(added.count == 1 and added.data[0]["interest"] == "art", "an insert with count=exact", f"{added.data} {added.count}")
    changed = await grids.table("profile_interests").update({"updated_at": "2026-01-10T11:00:00Z"}, count="exact").eq("id", row["id"]).execute()
    check(changed.count == 1, "an update with count=exact", str(changed.count))

    for c in [bob] + [f[0] for f in friends]:
        await c.realtime.close()
    finish()


asyncio.run(main())
