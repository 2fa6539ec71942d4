"""The hosted platform's own Python client (`supabase` from PyPI) against `summit serve`.

Run by GatewayTests' CompatibilitySuiteTests, which starts two `summit serve`
processes on one fresh database (and nginx with TLS in front of the first), as
`python compat.py CONFIG.json`; support.py says what CONFIG.json holds.
"""

import asyncio
import time
import uuid

from support import CONFIG, WAIT, Inbox, check, client, fail, finish, ok, sign_up, subscribed
from postgrest.exceptions import APIError
from storage3.exceptions import StorageApiError
from supabase_auth.errors import AuthApiError

PICTURE = b"RIFF\x00\x00\x00\x00WEBPVP8 " + bytes(range(256)) * 4


def position_from(user_id):
    return lambda event: event.get("event") == "position" and event["payload"].get("u") == user_id


async def main():
    a, b = CONFIG["a"], CONFIG["b"]
    name = uuid.uuid4().hex[:6]
    ann_name, bob_name, carl_name = f"ann{name}", f"bob{name}", f"carl{name}"

    # --- auth ---------------------------------------------------------------
    ann, ann_id = await sign_up(a, ann_name)
    bob, bob_id = await sign_up(b, bob_name)
    carl, carl_id = await sign_up(a, carl_name)
    ok("three people sign up (two gateway processes)")

    again = await client(b)
    signed_in = await again.auth.sign_in_with_password({"email": f"{ann_name}@example.test", "password": "correct horse battery"})
    check(signed_in.user.id == ann_id, "ann signs in with her password on the other process")
    user = await ann.auth.get_user()
    check(user.user.email == f"{ann_name}@example.test", "GET /auth/v1/user knows ann")
    before = (await ann.auth.get_session()).refresh_token
    refreshed = await ann.auth.refresh_session()
    check(refreshed.session.refresh_token != before, "a refresh rotates the refresh token")
    try:
        await (await client(a)).auth.sign_in_with_password({"email": f"{ann_name}@example.test", "password": "wrong"})
        fail("a wrong password is refused", "it signed in")
    except AuthApiError as error:
        check(error.code == "invalid_credentials", "a wrong password is refused", str(error))
    try:
        await (await client(a)).auth.sign_up({"email": f"{ann_name}@example.test", "password": "correct horse battery"})
        fail("signing up twice is refused", "it signed up")
    except AuthApiError as error:
        check(error.code == "user_already_exists", "signing up twice is refused", str(error))

    # --- friends through RPCs -------------------------------------------------
    sent = await ann.schema("social").rpc("send_friend_request", {"p_user_id": bob_id}).execute()
    accepted = await bob.schema("social").rpc("send_friend_request", {"p_user_id": ann_id}).execute()
    check(sent.data == "sent" and accepted.data == "friends", "ann and bob become friends through social RPCs", f"{sent.data} {accepted.data}")
    friends = await ann.schema("social").rpc("my_friends", {}).execute()
    check([row["username"] for row in friends.data] == [bob_name], "my_friends lists bob for ann", str(friends.data))
    none = await carl.schema("social").rpc("my_friends", {}).execute()
    check(none.data == [], "a stranger has no friends to see")
    try:
        await (await client(a)).schema("social").rpc("my_friends", {}).execute()
        fail("anon may not call my_friends", "it answered")
    except APIError as error:
        check(error.code == "42501", "anon may not call my_friends", str(error))

    # --- tables under RLS -----------------------------------------------------
    mine = await ann.schema("social").table("profiles").select("id,username", count="exact").execute()
    check([row["username"] for row in mine.data] == [ann_name] and mine.count == 1,
          "profiles: ann reads her own row only", f"{mine.data} count={mine.count}")
    ann_friendships = await ann.schema("social").table("friendships").select("*").execute()
    carl_friendships = await carl.schema("social").table("friendships").select("*").execute()
    check(len(ann_friendships.data) == 1 and carl_friendships.data == [], "friendships: parties see their row, a stranger nothing")
    interests = await carl.schema("grids").table("interests").select("slug").in_("slug", ["art", "music"]).order("slug").execute()
    check([row["slug"] for row in interests.data] == ["art", "music"], "filters and order on a reference table", str(interests.data))
    try:
        await carl.schema("auth").table("users").select("*").execute()
        fail("the auth schema is not exposed", "it answered")
    except APIError as error:
        check(error.code == "PGRST106", "the auth schema is not exposed", str(error))

    # --- positions: broadcast with the friend filter, across processes -------------
    bob_positions, carl_positions = Inbox(), Inbox()
    bob_channel = bob.channel("pos:resort:vail")
    bob_channel.on_broadcast("position", bob_positions)
    await subscribed(bob_channel, "bob follows vail on process b")
    carl_channel = carl.channel("pos:resort:vail")
    carl_channel.on_broadcast("position", carl_positions)
    await subscribed(carl_channel, "carl follows vail on process a")
    ann_channel = ann.channel("pos:resort:vail", {"config": {"broadcast": {"ack": True, "self": False}}})
    await subscribed(ann_channel, "ann joins vail on process a")
    await ann_channel.send_broadcast("position", {"lat": 39.6403, "lon": -106.3742, "at": time.time(), "acc": 6})
    got = await bob_positions.wait_for(position_from(ann_id), "bob receives ann's position")
    check(got["payload"]["n"] == ann_name and got["payload"]["freshness"] == "live",
          "bob (process b) receives ann's position from process a, named and fresh", str(got))
    await asyncio.sleep(1.0)
    check(not any(position_from(ann_id)(event) for event in carl_positions.items), "carl, a stranger, receives no position of ann")

    # --- broadcast and presence on a plain channel, across processes ----------------
    room = f"trip-{name}"
    bob_room, ann_room_events = Inbox(), Inbox()
    bob_trip = bob.channel(room, {"config": {"presence": {"key": bob_name, "enabled": True}, "broadcast": {"self": False}}})
    bob_trip.on_broadcast("hello", bob_room)
    bob_trip.on_presence_sync(lambda: bob_room(("sync", dict(bob_trip.presence_state()))))
    await subscribed(bob_trip, "bob joins the trip room")
    ann_trip = ann.channel(room, {"config": {"presence": {"key": ann_name, "enabled": True}}})
    ann_trip.on_presence_sync(lambda: ann_room_events(("sync", dict(ann_trip.presence_state()))))
    await subscribed(ann_trip, "ann joins the trip room")
    await ann_trip.send_broadcast("hello", {"from": ann_name})
    hello = await bob_room.wait_for(lambda e: isinstance(e, dict) and e.get("event") == "hello", "bob hears ann's broadcast")
    check(hello["payload"] == {"from": ann_name}, "a broadcast crosses processes", str(hello))
    await ann_trip.track({"status": "skiing"})
    await bob_room.wait_for(lambda e: isinstance(e, tuple) and ann_name in e[1], "bob sees ann present")
    await bob_trip.track({"status": "lunch"})
    await ann_room_events.wait_for(lambda e: isinstance(e, tuple) and bob_name in e[1] and ann_name in e[1],
                                   "ann sees both present")
    ok("presence converges across processes (both see both)")
    await ann_trip.untrack()
    await bob_room.wait_for(lambda e: isinstance(e, tuple) and ann_name not in e[1] and bob_name in e[1], "ann's leave reaches bob")
    ok("an untrack reaches the other process")

    # --- postgres_changes: a new friendship reaches its parties only ----------------
    dan, dan_id = await sign_up(a, f"dan{name}")
    bob_changes, carl_changes = Inbox(), Inbox()
    bob_feed = bob.channel(f"friends-{name}")
    bob_feed.on_postgres_changes("INSERT", bob_changes, schema="social", table="friendships")
    await subscribed(bob_feed, "bob subscribes to changes of friendships")
    carl_feed = carl.channel(f"friends-{name}")
    carl_feed.on_postgres_changes("*", carl_changes, schema="social", table="friendships")
    await subscribed(carl_feed, "carl subscribes to the same table")
    await dan.schema("social").rpc("send_friend_request", {"p_user_id": bob_id}).execute()
    await bob.schema("social").rpc("send_friend_request", {"p_user_id": dan_id}).execute()
    change = await bob_changes.wait_for(lambda e: e["data"]["type"] == "INSERT", "bob receives the new friendship")
    record = change["data"]["record"]
    check(sorted([record["user_a"], record["user_b"]]) == sorted([dan_id, bob_id]),
          "bob receives the new friendship as a postgres change, read under RLS", str(change["data"]))
    await asyncio.sleep(1.0)
    check(carl_changes.items == [], "carl, not a party, receives no change")
    try:
        meet_channel = ann.channel(f"meets-{name}")
        meet_channel.on_postgres_changes("*", Inbox(), schema="meet", table="meet_requests", filter=f"receiver_id=eq.{ann_id}")
        states = []
        await meet_channel.subscribe(lambda state, error: states.append(state.value))
        if states and states[-1] == "SUBSCRIBED":
            ok("meet.meet_requests is published for postgres_changes")
        else:
            print("# skip meet.meet_requests: not on this database yet; its trigger attaches when the table arrives", flush=True)
        await ann.remove_channel(meet_channel)
    except Exception as error:  # noqa: BLE001 - reported, not hidden
        fail("meet_requests binding", str(error))

    # --- storage: an avatar, seen by friends only --------------------------------
    path = f"{ann_id}/{uuid.uuid4()}.webp"
    stored = await ann.storage.from_("avatars").upload(path, PICTURE, {"content-type": "image/webp"})
    check(stored.path == path, "ann uploads an avatar", str(stored))
    await ann.schema("social").table("profiles").update({"avatar_path": path}).eq("id", ann_id).execute()
    check(await bob.storage.from_("avatars").download(path) == PICTURE, "bob, a friend, downloads ann's avatar")
    try:
        await carl.storage.from_("avatars").download(path)
        fail("carl may not download ann's avatar", "it downloaded")
    except StorageApiError as error:
        check(str(error.status) == "404", "carl, a stranger, gets 404 for ann's avatar", str(error))
    try:
        await carl.storage.from_("avatars").upload(f"{ann_id}/{uuid.uuid4()}.webp", PICTURE, {"content-type": "image/webp"})
        fail("carl may not upload into ann's folder", "it uploaded")
    except StorageApiError as error:
        check(str(error.status) == "403", "carl may not upload into ann's folder", str(error))

    # --- a refresh keeps realtime going; an unfriend stops it at once ---------------
    await bob.auth.refresh_session()
    await asyncio.sleep(0.3)
    await ann_channel.send_broadcast("position", {"lat": 39.6404, "lon": -106.3743, "at": time.time(), "acc": 6})
    await bob_positions.wait_for(lambda e: position_from(ann_id)(e) and e["payload"]["lat"] == 39.6404,
                                 "bob still receives after refreshing his token")
    ok("a token refresh takes effect on joined channels without a rejoin")
    await ann.schema("social").rpc("remove_friend", {"p_user_id": bob_id}).execute()
    await asyncio.sleep(0.3)
    count_before = len(bob_positions.items)
    await ann_channel.send_broadcast("position", {"lat": 39.6405, "lon": -106.3744, "at": time.time(), "acc": 6})
    await asyncio.sleep(1.5)
    check(not any(position_from(ann_id)(e) and e["payload"]["lat"] == 39.6405 for e in bob_positions.items[count_before:]),
          "after the unfriend, bob receives no further position of ann")
    try:
        await bob.storage.from_("avatars").download(path)
        fail("after the unfriend, the avatar is gone for bob", "it downloaded")
    except StorageApiError as error:
        check(str(error.status) == "404", "after the unfriend, the avatar is gone for bob", str(error))

    # --- sign-out ---------------------------------------------------------------
    token = (await carl.auth.get_session()).refresh_token
    await carl.auth.sign_out()
    try:
        await (await client(a)).auth._refresh_access_token(token)
        fail("a signed-out refresh token is refused", "it refreshed")
    except AuthApiError as error:
        check(error.status == 400, "a signed-out refresh token is refused", str(error))

    for c in (ann, bob, carl, dan):
        await c.realtime.close()

    # --- through nginx with TLS ----------------------------------------------------
    if CONFIG.get("tls"):
        tls = CONFIG["tls"]
        eve, eve_id = await sign_up(tls, f"eve{name}")
        profile = await eve.schema("social").rpc("my_profile", {}).execute()
        check(profile.data["profile"]["username"] == f"eve{name}", "through nginx (https): sign-up and an RPC")
        inbox = Inbox()
        echo = eve.channel(f"tls-{name}", {"config": {"broadcast": {"self": True}}})
        echo.on_broadcast("ping", inbox)
        await subscribed(echo, "a channel through nginx (wss)")
        await echo.send_broadcast("ping", {"n": 1})
        await inbox.wait_for(lambda e: e.get("event") == "ping", "a broadcast comes back through nginx")
        ok("through nginx (wss): a broadcast comes back")
        await eve.realtime.close()

    finish()


asyncio.run(main())
