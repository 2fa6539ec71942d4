"""AirStrive's flows through its face, with AirStrive's key and the seed's unqualified
names, through the platform's own Python client (supabase-py): sign in, the shelf, a
moment with a photo, a friend who sees it and a stranger who does not, a group grid,
an Atlas add, a sync pull, and delete-account.

Run by GatewayTests' CompatibilitySuiteTests on the same servers as the other
suites, as `python compat_airstrive.py CONFIG.json`; support.py says what it holds.
"""

import asyncio
import datetime
import uuid

import httpx
from support import CONFIG, airstrive_person, check, fail, finish, now, ok, sync_push as push

KEY = CONFIG["airstrive_anon"]
PICTURE = b"RIFF\x00\x00\x00\x00WEBPVP8 " + bytes(range(256)) * 2


async def person(name):
    return await airstrive_person(CONFIG["a"], name)


async def main():
    tag = uuid.uuid4().hex[:6]
    ann, ann_id, _ = await person(f"aann{tag}")
    bob, bob_id, _ = await person(f"abob{tag}")
    cy, cy_id, cy_session = await person(f"acy{tag}")
    ok("three people sign up with AirStrive's key")

    await ann.rpc("send_friend_request", {"p_user_id": bob_id}).execute()
    answered = (await bob.rpc("send_friend_request", {"p_user_id": ann_id}).execute()).data
    friends = (await ann.rpc("my_friends").execute()).data
    check(answered == "friends" and any(f.get("user_id", f.get("id")) == bob_id for f in friends),
          "send_friend_request both ways makes friends; my_friends lists bob", f"{answered} {friends}")

    # --- the shelf: a starter grid on ann's shelf ---------------------------------------------------
    starters = (await ann.table("grids").select("id,title,size").eq("kind", "starter").order("title").execute()).data
    check(len(starters) > 0, "grids lists the starter grids", str(starters)[:200])
    device = str(uuid.uuid4())
    shelf = await push(ann, "user_grids", {"id": str(uuid.uuid4()), "grid_id": starters[0]["id"], "audience": "friends"}, device)
    squares = (await ann.table("user_squares").select("id,position").eq("user_grid_id", shelf["id"]).execute()).data
    rows = (await ann.table("user_grids").select("id,grid_id,audience").eq("id", shelf["id"]).execute()).data
    check(rows and rows[0]["audience"] == "friends" and squares,
          "sync_push user_grids puts it on the shelf; user_grids and user_squares read it back", f"{rows} {squares[:2]}")

    # --- a moment with a photo ----------------------------------------------------------------------
    revealed = (await ann.table("user_square_states").select("*").eq("user_grid_id", shelf["id"]).execute()).data
    open_square = next((s for s in revealed if s.get("state") == "revealed"), None)
    if open_square is None:
        fail("a revealed square", str(revealed)[:300])
    square_id = open_square["id"]
    moment = await push(ann, "moments", {"id": str(uuid.uuid4()), "user_square_id": square_id, "title": "First tracks",
                                         "happened_on": datetime.date.today().isoformat(), "audience": "friends"}, device)
    photo = await push(ann, "photos", {"id": str(uuid.uuid4()), "moment_id": moment["id"]}, device)
    path = f"{ann_id}/{photo['id']}.webp"
    await ann.storage.from_("photos").upload(path, PICTURE, {"content-type": "image/webp"})
    marked = (await ann.rpc("photo_uploaded", {"p_photo_id": photo["id"]}).execute()).data
    check(marked.get("uploaded_at") is not None, "a photo uploads to photos/{user_id}/{photo_id}.webp and photo_uploaded marks it", str(marked))

    seen = (await bob.rpc("person_moment", {"p_moment_id": moment["id"]}).execute()).data
    downloaded = await bob.storage.from_("photos").download(path)
    check(seen and seen.get("title") == "First tracks" and downloaded == PICTURE,
          "a friend reads the moment (person_moment) and downloads its photo", str(seen)[:200])

    hidden = (await cy.rpc("person_moment", {"p_moment_id": moment["id"]}).execute()).data
    stranger_rows = (await cy.table("moments").select("id").eq("id", moment["id"]).execute()).data
    try:
        await cy.storage.from_("photos").download(path)
        stranger_file = True
    except Exception:
        stranger_file = False
    check(not hidden and not stranger_rows and not stranger_file,
          "a stranger sees neither the moment nor its photo, by RPC, table or storage", f"{hidden} {stranger_rows} {stranger_file}")
    try:
        await cy.table("moments").update({"title": "mine now"}).eq("id", moment["id"]).execute()
    except Exception:
        pass
    still = (await ann.table("moments").select("title").eq("id", moment["id"]).execute()).data
    check(still and still[0]["title"] == "First tracks", "a stranger's update through the face changes nothing", str(still))

    # --- a group grid -------------------------------------------------------------------------------
    group_shelf = await push(ann, "user_grids", {"id": str(uuid.uuid4()), "grid_id": starters[-1]["id"], "audience": "friends"}, device)
    started = (await ann.rpc("start_group", {"p_user_grid_id": group_shelf["id"]}).execute()).data
    groups = (await ann.rpc("my_groups").execute()).data
    check(started and any(g["group_id"] == group_shelf["id"] for g in groups),
          "start_group makes it a group grid; my_groups lists it", f"{started} {groups}")

    # --- the Atlas ----------------------------------------------------------------------------------
    themes = (await bob.table("themes").select("slug").eq("active", True).order("sort").execute()).data
    made = (await bob.rpc("save_grid", {"p_grid": {"theme": themes[0]["slug"],
        "id": str(uuid.uuid4()), "title": f"Powder days {tag}", "size": 7, "color": "sky",
        "squares": [f"Square {i}" for i in range(49)], "shared": True, "updated_at": now()}}).execute()).data
    found = (await ann.rpc("atlas_search", {"p_query": f"Powder days {tag}"}).execute()).data
    if not found:
        fail("atlas_search finds bob's shared grid", f"save_grid answered {made}")
    atlas = await push(ann, "user_grids", {"id": str(uuid.uuid4()), "grid_id": found[0]["grid_id"], "audience": "private"}, device)
    on_shelf = (await ann.table("user_grids").select("grid_id").eq("id", atlas["id"]).execute()).data
    check(found[0]["maker_username"] == f"abob{tag}" and on_shelf and on_shelf[0]["grid_id"] == found[0]["grid_id"],
          "save_grid shares a grid; atlas_search finds it; ann adds it to her shelf", f"{made} {found[0]} {on_shelf}")

    # --- a second phone's sync pull -----------------------------------------------------------------
    pulled = (await ann.rpc("sync_pull", {"p_table": "moments"}).execute()).data
    check(any(r["id"] == moment["id"] for r in pulled.get("rows", [])), "sync_pull moments brings the moment to another phone",
          str(pulled)[:300])
    stranger_pull = (await cy.rpc("sync_pull", {"p_table": "moments"}).execute()).data
    check(not stranger_pull.get("rows"), "a stranger's sync_pull brings none of it", str(stranger_pull)[:200])

    # --- delete-account -----------------------------------------------------------------------------
    async with httpx.AsyncClient() as http:
        deleted = await http.post(f"{CONFIG['a']}/functions/v1/delete-account",
                                  headers={"apikey": KEY, "Authorization": f"Bearer {cy_session.access_token}"})
        check(deleted.status_code == 200 and deleted.json().get("deleted") is True, "delete-account deletes the caller's account",
              f"{deleted.status_code} {deleted.text[:200]}")
        refreshed = await http.post(f"{CONFIG['a']}/auth/v1/token?grant_type=refresh_token", json={"refresh_token": cy_session.refresh_token},
                                    headers={"apikey": KEY})
        signed_in = await http.post(f"{CONFIG['a']}/auth/v1/token?grant_type=password",
                                    json={"email": f"acy{tag}@example.test", "password": "correct horse battery"}, headers={"apikey": KEY})
        check(refreshed.status_code >= 400 and signed_in.status_code >= 400,
              "its refresh token and its password stop working at once", f"{refreshed.status_code} {signed_in.status_code}")
        anonymous = await http.post(f"{CONFIG['a']}/functions/v1/delete-account", headers={"apikey": KEY, "Authorization": f"Bearer {KEY}"})
        check(anonymous.status_code == 401, "delete-account without a session is refused", str(anonymous.status_code))

    await asyncio.gather(ann.auth.sign_out(), bob.auth.sign_out())
    finish()


asyncio.run(main())
