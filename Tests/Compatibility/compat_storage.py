"""Every storage verb, and the realtime answers to joins it cannot serve, through
the hosted platform's own Python client (storage3 and realtime inside `supabase`).

Run by GatewayTests' CompatibilitySuiteTests after compat.py, on the same servers,
as `python compat_storage.py CONFIG.json`; support.py says what CONFIG.json holds.
"""

import asyncio
import time
import uuid

import httpx

from support import CONFIG, Inbox, check, client, fail, finish, ok, refused, service_client, sign_up

PICTURE = b"RIFF\x00\x00\x00\x00WEBPVP8 " + bytes(range(256)) * 4


async def main():
    a, b = CONFIG["a"], CONFIG["b"]
    name = uuid.uuid4().hex[:6]
    service = await service_client(a)
    ann, ann_id = await sign_up(a, f"sann{name}")
    bob, bob_id = await sign_up(b, f"sbob{name}")
    carl, _ = await sign_up(a, f"scarl{name}")
    await ann.schema("social").rpc("send_friend_request", {"p_user_id": bob_id}).execute()
    await bob.schema("social").rpc("send_friend_request", {"p_user_id": ann_id}).execute()
    ok("three people sign up; ann and bob are friends")

    # --- buckets: the service role's ------------------------------------------------
    bucket = f"docs{name}"
    created = await service.storage.create_bucket(bucket, options={"public": False, "file_size_limit": 1024,
                                                                   "allowed_mime_types": ["text/plain"]})
    check(created.get("name") == bucket, "create_bucket (service role)", str(created))
    got = await service.storage.get_bucket(bucket)
    check(got.id == bucket and got.file_size_limit == 1024 and got.allowed_mime_types == ["text/plain"] and not got.public,
          "get_bucket returns the bucket", str(got))
    listed = await service.storage.list_buckets()
    check({"avatars", "photos", bucket} <= {each.id for each in listed}, "list_buckets lists it", str([each.id for each in listed]))
    updated = await service.storage.update_bucket(bucket, {"public": True, "file_size_limit": 2048})
    got = await service.storage.get_bucket(bucket)
    check(updated.get("message") == "Successfully updated" and got.public and got.file_size_limit == 2048,
          "update_bucket changes it", f"{updated} {got}")
    stored = await service.storage.from_(bucket).upload("notes/readme.txt", b"hello", {"content-type": "text/plain"})
    check(stored.path == "notes/readme.txt", "the service role uploads into it")
    public_url = await service.storage.from_(bucket).get_public_url("notes/readme.txt")
    async with httpx.AsyncClient() as http:
        fetched = await http.get(public_url)
    check(fetched.status_code == 200 and fetched.content == b"hello", "get_public_url serves a public bucket's file, no key needed",
          f"{fetched.status_code} {fetched.text[:200]}")
    await refused(service.storage.delete_bucket(bucket), 409, "delete_bucket refuses a bucket with files")
    emptied = await service.storage.empty_bucket(bucket)
    check(emptied.get("message") == "Successfully emptied" and await service.storage.from_(bucket).list("notes") == [],
          "empty_bucket removes its files", str(emptied))
    deleted = await service.storage.delete_bucket(bucket)
    check(deleted.get("message") == "Successfully deleted", "delete_bucket deletes the empty bucket", str(deleted))
    error = await refused(service.storage.get_bucket(bucket), 404, "get_bucket of a deleted bucket is 404")
    check(error.code == "Bucket not found", "... with the platform's error", error.code)
    for who, someone in (("anon", await client(a)), ("ann", ann)):
        await refused(someone.storage.list_buckets(), 403, f"{who} may not list buckets")
        await refused(someone.storage.get_bucket("avatars"), 403, f"{who} may not read a bucket")
        await refused(someone.storage.create_bucket(f"evil{name}"), 403, f"{who} may not create a bucket")
        await refused(someone.storage.update_bucket("avatars", {"public": True}), 403, f"{who} may not update a bucket")
        await refused(someone.storage.empty_bucket("avatars"), 403, f"{who} may not empty a bucket")
        await refused(someone.storage.delete_bucket("avatars"), 403, f"{who} may not delete a bucket")
    check(not (await service.storage.get_bucket("avatars")).public, "... and avatars is as it was")

    # --- objects: list, info, exists, update, signed URLs, move, copy, remove --------------------
    avatars = ann.storage.from_("avatars")
    names = sorted(f"{uuid.uuid4()}.webp" for _ in range(3))
    for each in names:
        await avatars.upload(f"{ann_id}/{each}", PICTURE, {"content-type": "image/webp"})
    path = f"{ann_id}/{names[0]}"
    listing = await avatars.list(ann_id)
    check([item["name"] for item in listing] == names, "list returns ann's files by name", str(listing))
    paged = await avatars.list(ann_id, {"limit": 1, "offset": 1, "sortBy": {"column": "name", "order": "desc"}})
    check([item["name"] for item in paged] == [names[1]], "list with limit, offset and sortBy", str(paged))
    searched = await avatars.list(ann_id, {"search": names[2][:8].upper()})
    check([item["name"] for item in searched] == [names[2]], "list with search", str(searched))
    check(await carl.storage.from_("avatars").list(ann_id) == [], "a stranger lists nothing of ann's")
    info = await avatars.info(path)
    check(info["name"] == path and info["size"] == len(PICTURE) and info["content_type"] == "image/webp", "info", str(info))
    check(await avatars.exists(path), "exists() is true for ann's file")
    check(not await avatars.exists(f"{ann_id}/{uuid.uuid4()}.webp"), "exists() is false for a missing file")
    check(not await carl.storage.from_("avatars").exists(path), "exists() is false for a file a stranger may not see")
    await avatars.update(path, PICTURE[::-1], {"content-type": "image/webp"})
    check(await avatars.download(path) == PICTURE[::-1], "update replaces the file")

    await ann.schema("social").table("profiles").update({"avatar_path": path}).eq("id", ann_id).execute()
    signed = await bob.storage.from_("avatars").create_signed_url(path, 60)
    async with httpx.AsyncClient() as http:
        fetched = await http.get(signed["signedURL"])
        tampered = await http.get(signed["signedURL"][:-2] + ("AA" if not signed["signedURL"].endswith("AA") else "BB"))
    check(fetched.status_code == 200 and fetched.content == PICTURE[::-1], "bob's signed URL serves ann's avatar without a key",
          f"{fetched.status_code} {fetched.text[:200]}")
    check(tampered.status_code == 400 and tampered.json()["error"] == "InvalidJWT", "a tampered token is refused", tampered.text)
    await refused(carl.storage.from_("avatars").create_signed_url(path, 60), 404, "a stranger cannot sign ann's avatar")
    many = await ann.storage.from_("avatars").create_signed_urls([path, f"{ann_id}/missing.webp"], 60)
    check(many[0]["signedURL"] and many[0]["error"] is None and many[1]["signedURL"] is None and many[1]["error"],
          "create_signed_urls signs what exists, says why not for the rest", str(many))

    moved_to = f"{ann_id}/{uuid.uuid4()}.webp"
    moved = await avatars.move(f"{ann_id}/{names[1]}", moved_to)
    check(moved.get("message") == "Successfully moved" and await avatars.download(moved_to) == PICTURE, "move", str(moved))
    check(not await avatars.exists(f"{ann_id}/{names[1]}"), "... and the old name is gone")
    await refused(avatars.move(moved_to, f"{bob_id}/{uuid.uuid4()}.webp"), 403, "moving into bob's folder is refused")
    copied_to = f"{ann_id}/{uuid.uuid4()}.webp"
    copied = await avatars.copy(moved_to, copied_to)
    check(copied.get("Key") == f"avatars/{copied_to}" and await avatars.download(copied_to) == PICTURE, "copy", str(copied))
    await refused(avatars.copy(moved_to, copied_to), 409, "copying onto an existing file is refused")
    removed = await avatars.remove([copied_to, moved_to])
    check(sorted(item["name"] for item in removed) == sorted([copied_to, moved_to]), "remove deletes both", str(removed))
    check(not await avatars.exists(copied_to), "... and they are gone")

    # --- realtime: a table that sends no changes is said at once --------------------------------
    states = []
    channel = ann.channel(f"profiles-{name}")
    channel.on_postgres_changes("*", Inbox(), schema="social", table="profiles")
    started = time.monotonic()
    await channel.subscribe(lambda state, error: states.append((state.value, str(error or ""))))
    deadline = time.monotonic() + 5
    while not any(state == "CHANNEL_ERROR" for state, _ in states) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    errors = [why for state, why in states if state == "CHANNEL_ERROR"]
    if not errors:
        fail("an unpublished table is refused at once", f"no CHANNEL_ERROR within 5 s: {states}")
    check("Unable to subscribe to changes" in errors[0] and "social.profiles" in errors[0] and time.monotonic() - started < 5,
          "a postgres_changes join on social.profiles gets the platform's system error at once", errors[0])
    await ann.remove_channel(channel)

    # --- realtime: presence_state only where presence is enabled ----------------------------------
    def recording(channel):
        seen = Inbox()
        handle = channel.presence._on_state_event
        channel.presence._on_state_event = lambda payload: (seen(payload), handle(payload))
        return seen

    quiet = bob.channel(f"quiet-{name}")
    quiet_states = recording(quiet)
    await quiet.subscribe()
    lively = bob.channel(f"lively-{name}", {"config": {"presence": {"key": "bob", "enabled": True}}})
    lively_states = recording(lively)
    await lively.subscribe()
    await lively_states.wait_for(lambda payload: True, "a channel with presence enabled gets presence_state")
    ok("a channel with presence enabled gets presence_state")
    await asyncio.sleep(1.0)
    check(quiet_states.items == [], "a channel without presence gets no presence_state", str(quiet_states.items))

    for c in (ann, bob, carl):
        await c.realtime.close()
    finish()


asyncio.run(main())
