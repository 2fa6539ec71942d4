"""The PowderMeet app's 72 backend calls (../shared/contracts/powdermeet-app.md),
replayed as the app and its client library (supabase-swift 2.41.1) send them —
the PowderMeet key, no schema header, the app's names, upper-case UUIDs in
filters, nil optionals left out — and each answer checked against what the app
decodes (its row types' required fields and their types).

Every call runs. The ones Summit serves (SERVED) must work: each is a TAP step.
The others are reported with what went wrong, and the tally says how far the
contract is: "the PowderMeet contract: N of 72 calls work".
"""

import asyncio
import base64
import datetime
import hashlib
import json
import secrets
import time
import urllib.parse
import uuid
import zlib

import httpx
import websockets

from support import CONFIG, check, fail, finish, mail_to, mails_to, provider_token

A = CONFIG["a"]
KEY = CONFIG["powdermeet_anon"]
CLIENT_INFO = "supabase-swift/2.41.1"

# The calls Summit serves today; each one must work.
SERVED = {
    "AU1", "AU2", "AU3", "AU4", "AU5", "AU6", "AU7", "AU8", "AU9",
    "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8",
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "B1", "B2", "B3",
    "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8",
    "L1", "L2", "L3", "I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8", "I9", "S1", "E1", "K1", "D1", "SP1", "CM1", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "FN1", "FN2", "FN3", "ST1", "ST2", "ST3", "RT1", "RT2", "RT3", "RT4", "RT5",
}

# ------------------------------------------------------------------ the app's row types

UUID_, STR, NUM, INT, BOOL, DATE = "uuid", "string", "number", "integer", "bool", "date"
USER_PROFILE = ({"id": UUID_, "display_name": STR, "skill_level": STR, "condition_moguls": NUM, "condition_ungroomed": NUM,
                 "condition_icy": NUM, "condition_gladed": NUM, "onboarding_completed": BOOL},
                {"avatar_url": STR, "current_resort_id": STR, "speed_green": NUM, "speed_blue": NUM, "speed_black": NUM,
                 "speed_double_black": NUM, "speed_terrain_park": NUM, "max_comfortable_gradient_degrees": NUM,
                 "mogul_tolerance": NUM, "narrow_trail_tolerance": NUM, "exposure_tolerance": NUM,
                 "crust_condition_tolerance": NUM, "live_recording_enabled": BOOL, "height_cm": NUM, "weight_kg": NUM,
                 "preferred_ski_id": UUID_, "created_at": DATE, "updated_at": DATE})
FRIENDSHIP = ({"id": UUID_, "requester_id": UUID_, "addressee_id": UUID_, "status": STR}, {"created_at": DATE})
MEET_REQUEST = ({"id": UUID_, "sender_id": UUID_, "receiver_id": UUID_, "resort_id": STR, "meeting_node_id": STR,
                 "meeting_node_elevation": NUM, "status": STR},
                {"meeting_node_display_name": STR, "sender_position_node_id": STR, "receiver_position_node_id": STR,
                 "sender_eta_seconds": NUM, "receiver_eta_seconds": NUM, "created_at": DATE, "expires_at": DATE,
                 "graph_snapshot_date": STR, "manifest_version": INT})
PROFILE_STATS = ({"profile_id": UUID_, "days_skied": INT, "runs_count": INT, "vertical_m": NUM, "top_speed_ms": NUM,
                  "total_duration_s": NUM, "total_distance_m": NUM, "top_grade_deg": NUM, "avg_speed_ms": NUM},
                 {"last_import_at": DATE})
PER_EDGE_SPEED = ({"resort_id": STR, "edge_id": STR, "conditions_fp": STR, "observation_count": INT,
                   "rolling_speed_ms": NUM, "rolling_duration_s": NUM, "last_observed_at": DATE},
                  {"rolling_peak_ms": NUM, "rolling_speed_variance_ms2": NUM})
IMPORTED_RUN = ({"id": UUID_, "profile_id": UUID_, "speed_ms": NUM, "duration_s": NUM, "vertical_m": NUM, "distance_m": NUM,
                 "max_grade_deg": NUM, "run_at": DATE, "created_at": DATE},
                {"resort_id": STR, "edge_id": STR, "difficulty": STR, "peak_speed_ms": NUM, "source": STR, "trail_name": STR,
                 "dedup_hash": STR, "source_file_hash": STR})
SKI = ({"id": UUID_, "brand": STR, "model": STR}, {"category": STR, "waist_width_mm": INT, "topsheet_asset_key": STR})


def problem(value, kind):
    """Why `value` does not decode as `kind` (as Swift's JSONDecoder would), or None."""
    try:
        if kind == UUID_:
            uuid.UUID(value)
        elif kind == STR:
            assert isinstance(value, str)
        elif kind == NUM:
            assert isinstance(value, (int, float)) and not isinstance(value, bool)
        elif kind == INT:
            assert isinstance(value, int) and not isinstance(value, bool)
        elif kind == BOOL:
            assert isinstance(value, bool)
        elif kind == DATE:
            datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        return None
    except Exception:
        return f"{value!r} is not a {kind}"


def decodes(row, shape):
    """Why `row` does not decode into the app's type, or None."""
    required, optional = shape
    if not isinstance(row, dict):
        return f"not an object: {str(row)[:120]}"
    for name, kind in required.items():
        if row.get(name) is None:
            return f"required {name} is missing"
        if why := problem(row[name], kind):
            return f"{name}: {why}"
    for name, kind in optional.items():
        if row.get(name) is not None and (why := problem(row[name], kind)):
            return f"{name}: {why}"
    return None


def decodes_all(rows, shape, at_least=0):
    if not isinstance(rows, list):
        return f"not an array: {str(rows)[:160]}"
    if len(rows) < at_least:
        return f"{len(rows)} rows, the app needs at least {at_least}"
    return next((why for why in (decodes(row, shape) for row in rows) if why), None)


# ------------------------------------------------------------------ requests as the app sends them

def headers(token=None, accept="application/json", prefer=None, extra=None):
    values = {"apikey": KEY, "Authorization": f"Bearer {token or KEY}", "X-Client-Info": CLIENT_INFO,
              "Content-Type": "application/json", "Accept": accept}
    if prefer:
        values["Prefer"] = prefer
    return values | (extra or {})


GEOHASH = "0123456789bcdefghjkmnpqrstuvwxyz"


def geohash6(lat, lon):
    """The app's geohash: precision 6, longitude first."""
    bounds, bits, even = [[-90.0, 90.0], [-180.0, 180.0]], [], True
    while len(bits) < 30:
        low, high = bounds[1 if even else 0]
        middle = (low + high) / 2
        value = lon if even else lat
        bits.append(1 if value >= middle else 0)
        bounds[1 if even else 0] = [middle, high] if value >= middle else [low, middle]
        even = not even
    return "".join(GEOHASH[int("".join(map(str, bits[i:i + 5])), 2)] for i in range(0, 30, 5))


def nine_cells(lat, lon):
    """The own cell and its eight neighbours, as the app steps from the cell's centre."""
    height, width = 180 / 2 ** 15, 360 / 2 ** 15
    return list(dict.fromkeys(geohash6(lat + dy * height, lon + dx * width) for dy in (0, 1, -1) for dx in (0, 1, -1)))


def up(value):
    return str(value).upper()


def verifier_and_challenge():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


class Replay:
    def __init__(self, http):
        self.http = http
        self.results = {}

    async def rest(self, method, path, token=None, body=None, accept="application/json", prefer=None):
        response = await self.http.request(method, f"{A}/rest/v1/{path}", headers=headers(token, accept, prefer),
                                           content=None if body is None else json.dumps(body))
        return response

    async def call(self, id, what, run):
        """Runs one call; `run` answers None when it worked, else why not."""
        try:
            why = await run()
        except Exception as error:  # a crash in one call is that call's failure, not the replay's
            why = f"{type(error).__name__}: {error}"
        self.results[id] = why
        if id in SERVED:
            check(why is None, f"{id} {what}", why or "")
        elif why is None:
            print(f"# {id} {what}: works (add it to SERVED)", flush=True)
        else:
            print(f"# {id} {what}: not yet — {why[:300]}", flush=True)


def status_is(response, *codes):
    if response.status_code in codes:
        return None
    return f"HTTP {response.status_code}: {response.text[:300]}"


async def sign_up(replay, name):
    verifier, challenge = verifier_and_challenge()
    response = await replay.http.post(f"{A}/auth/v1/signup", headers=headers(), json={
        "email": f"{name}@powdermeet.test", "password": "correct horse battery",
        "data": {"display_name": name.capitalize()}, "code_challenge": challenge, "code_challenge_method": "s256"})
    return response


def profile_body(uid, name, **fields):
    return {"id": up(uid), "display_name": name, "skill_level": "intermediate", "speed_green": 8.0, "speed_blue": 10.0,
            "speed_black": 9.0, "speed_double_black": 7.0, "speed_terrain_park": 6.0, "condition_moguls": 0.5,
            "condition_ungroomed": 0.5, "condition_icy": 0.5, "condition_gladed": 0.5, "live_recording_enabled": True,
            "onboarding_completed": False} | fields


async def main():
    http = httpx.AsyncClient(timeout=20, follow_redirects=False)
    replay = Replay(http)
    people = {}

    # --- auth -------------------------------------------------------------------------------------
    async def au1():
        for name in ("ria", "bo", "cy"):
            response = await sign_up(replay, name)
            if why := status_is(response, 200):
                return why
            body = response.json()
            if not body.get("access_token") or body["user"]["user_metadata"].get("display_name") != name.capitalize():
                return f"no session with the display name: {response.text[:200]}"
            people[name] = {"id": body["user"]["id"], "token": body["access_token"], "refresh": body["refresh_token"]}
    await replay.call("AU1", "sign-up with display_name and PKCE", au1)
    if len(people) < 3:
        fail("the replay needs the three accounts AU1 makes", str(replay.results["AU1"]))
    ria, bo, cy = people["ria"], people["bo"], people["cy"]

    async def au2():
        response = await http.post(f"{A}/auth/v1/token?grant_type=password", headers=headers(),
                                   json={"email": "ria@powdermeet.test", "password": "correct horse battery"})
        return status_is(response, 200) or (None if response.json().get("access_token") else "no access token")
    await replay.call("AU2", "password sign-in", au2)

    async def au3():
        response = await http.post(f"{A}/auth/v1/token?grant_type=refresh_token", headers=headers(),
                                   json={"refresh_token": ria["refresh"]})
        if why := status_is(response, 200):
            return why
        ria["token"], ria["refresh"] = response.json()["access_token"], response.json()["refresh_token"]
    await replay.call("AU3", "refresh", au3)

    async def au5_au6():
        seen = len(mails_to("ria@powdermeet.test"))
        verifier, challenge = verifier_and_challenge()
        response = await http.post(f"{A}/auth/v1/recover?redirect_to=powdermeet://reset", headers=headers(),
                                   json={"email": "ria@powdermeet.test", "code_challenge": challenge, "code_challenge_method": "s256"})
        if why := status_is(response, 200):
            return why, "no recovery mail"
        _, link, _ = await mail_to("ria@powdermeet.test", seen, "AU5 recovery mail")
        opened = await http.get(link)
        location = opened.headers.get("location", "")
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).get("code", [None])[0]
        if not location.startswith("powdermeet://reset") or not code:
            return None, f"the link led to {location or opened.status_code}, not powdermeet://reset?code="
        exchanged = await http.post(f"{A}/auth/v1/token?grant_type=pkce", headers=headers(),
                                    json={"auth_code": code, "code_verifier": verifier})
        return None, status_is(exchanged, 200)
    outcome = {}

    async def au5():
        outcome["au5"], outcome["au6"] = await au5_au6()
        return outcome["au5"]
    await replay.call("AU5", "recover with PKCE to powdermeet://reset", au5)

    async def au6():
        return outcome.get("au6", "AU5 did not run")
    await replay.call("AU6", "PKCE exchange of the reset link's code", au6)

    async def au7():
        response = await http.put(f"{A}/auth/v1/user", headers=headers(ria["token"]), json={"password": "a new horse battery"})
        return status_is(response, 200)
    await replay.call("AU7", "new password", au7)

    async def au8():
        response = await http.put(f"{A}/auth/v1/user", headers=headers(ria["token"]), json={"data": {"display_name": "Ria"}})
        return status_is(response, 200) or (None if response.json()["user_metadata"].get("display_name") == "Ria" else response.text)
    await replay.call("AU8", "display name in user metadata", au8)

    async def au9():
        nonce = secrets.token_urlsafe(16)
        token = provider_token(CONFIG["apple_key"], "https://appleid.apple.com", "app.summit.test", f"apple-{uuid.uuid4()}",
                               nonce=nonce, email=f"apple-{uuid.uuid4().hex[:8]}@privaterelay.appleid.com")
        response = await http.post(f"{A}/auth/v1/token?grant_type=id_token", headers=headers(),
                                   json={"provider": "apple", "id_token": token, "nonce": nonce})
        return status_is(response, 200)
    await replay.call("AU9", "Sign in with Apple", au9)

    # --- profiles ---------------------------------------------------------------------------------
    async def p1():
        response = await replay.rest("GET", f"profiles?select=*&id=eq.{up(ria['id'])}&limit=1", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), USER_PROFILE, at_least=1)
    await replay.call("P1", "own profile right after sign-up", p1)

    async def p2():
        for person, name in ((ria, "Ria"), (bo, "Bo"), (cy, "Cy")):
            response = await replay.rest("POST", "profiles", person["token"], profile_body(person["id"], name))
            if why := status_is(response, 201, 204):
                return why
    await replay.call("P2", "first profile save", p2)

    async def p3():
        response = await replay.rest("GET", f"profiles?select=id&display_name=ilike.Bo&id=neq.{up(ria['id'])}&limit=1", ria["token"])
        if why := status_is(response, 200):
            return why
        rows = response.json()
        return None if len(rows) == 1 and rows[0]["id"] == bo["id"] else f"expected Bo's id: {rows}"
    await replay.call("P3", "display-name check", p3)

    async def p4():
        response = await replay.rest("PATCH", f"profiles?id=eq.{up(ria['id'])}&select=*", ria["token"],
                                     {"display_name": "Ria Rider", "current_resort_id": "whistler-blackcomb", "height_cm": 172},
                                     prefer="return=representation")
        if why := status_is(response, 200) or decodes_all(response.json(), USER_PROFILE, at_least=1):
            return why
        return None if response.json()[0]["display_name"] == "Ria Rider" else response.text[:200]
    await replay.call("P4", "partial profile edit", p4)

    async def p5():
        body = profile_body(ria["id"], "Ria Rider", skill_level="advanced", onboarding_completed=True, height_cm=172, weight_kg=60,
                            current_resort_id="whistler-blackcomb")
        del body["id"]
        response = await replay.rest("PATCH", f"profiles?id=eq.{up(ria['id'])}&select=*", ria["token"], body,
                                     prefer="return=representation")
        return status_is(response, 200) or decodes_all(response.json(), USER_PROFILE, at_least=1)
    await replay.call("P5", "whole profile save", p5)

    async def p6():
        response = await replay.rest("GET", f"profiles?select=*&display_name=ilike.%25rider%25&id=neq.{up(bo['id'])}&limit=20", bo["token"])
        if why := status_is(response, 200) or decodes_all(response.json(), USER_PROFILE, at_least=1):
            return why
        found = response.json()[0]
        return None if found["id"] == ria["id"] and found.get("height_cm") is None else f"search answered {found}"
    await replay.call("P6", "friend search by display name", p6)

    async def p7():
        response = await replay.rest("GET", f"profiles?select=*&id=in.({up(bo['id'])},{up(cy['id'])})", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), USER_PROFILE, at_least=2)
    await replay.call("P7", "profiles by id list", p7)

    async def p8():
        response = await replay.rest("GET", f"profiles?select=*&id=eq.{up(bo['id'])}", ria["token"],
                                     accept="application/vnd.pgrst.object+json")
        return status_is(response, 200) or decodes(response.json(), USER_PROFILE)
    await replay.call("P8", "one profile as an object", p8)

    # --- friendships ------------------------------------------------------------------------------
    friendship = {}

    async def r3():
        response = await replay.rest("POST", "rpc/send_friend_request", bo["token"], {"p_addressee_id": up(ria["id"])})
        return status_is(response, 200, 204)
    await replay.call("R3", "send a friend request", r3)

    async def f2():
        response = await replay.rest("GET", f"friendships?select=*&addressee_id=eq.{up(ria['id'])}&status=eq.pending", ria["token"])
        if why := status_is(response, 200) or decodes_all(response.json(), FRIENDSHIP, at_least=1):
            return why
        friendship["id"] = response.json()[0]["id"]
    await replay.call("F2", "pending received", f2)

    async def f3():
        response = await replay.rest("GET", f"friendships?select=*&requester_id=eq.{up(bo['id'])}&status=eq.pending", bo["token"])
        return status_is(response, 200) or decodes_all(response.json(), FRIENDSHIP, at_least=1)
    await replay.call("F3", "pending sent", f3)

    async def f4():
        if "id" not in friendship:
            return "F2 found no request to accept"
        response = await replay.rest("PATCH", f"friendships?id=eq.{up(friendship['id'])}", ria["token"], {"status": "accepted"},
                                     prefer="return=representation")
        return status_is(response, 200, 204)
    await replay.call("F4", "accept", f4)

    async def f1():
        uid = up(ria["id"])
        response = await replay.rest("GET", f"friendships?select=*&status=eq.accepted&or=(requester_id.eq.{uid},addressee_id.eq.{uid})",
                                     ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), FRIENDSHIP, at_least=1)
    await replay.call("F1", "accepted friendships", f1)

    async def f5_f6():
        await replay.rest("POST", "rpc/send_friend_request", cy["token"], {"p_addressee_id": up(ria["id"])})
        listed = await replay.rest("GET", f"friendships?select=*&addressee_id=eq.{up(ria['id'])}&status=eq.pending", ria["token"])
        rows = listed.json() if listed.status_code == 200 else []
        if not rows:
            return f"no pending request from Cy to decline: {listed.text[:200]}"
        response = await replay.rest("DELETE", f"friendships?id=eq.{up(rows[0]['id'])}", ria["token"])
        return status_is(response, 200, 204)
    await replay.call("F5", "decline", f5_f6)

    async def f6():
        await replay.rest("POST", "rpc/send_friend_request", cy["token"], {"p_addressee_id": up(bo["id"])})
        response = await replay.rest("DELETE", f"friendships?requester_id=eq.{up(cy['id'])}&addressee_id=eq.{up(bo['id'])}&status=eq.pending",
                                     cy["token"])
        return status_is(response, 200, 204)
    await replay.call("F6", "cancel a sent request", f6)

    # --- blocks -----------------------------------------------------------------------------------
    async def b2():
        response = await replay.rest("POST", "user_blocks", cy["token"], {"blocker_id": up(cy["id"]), "blockee_id": up(bo["id"])})
        return status_is(response, 201, 204)
    await replay.call("B2", "block", b2)

    async def b1():
        response = await replay.rest("GET", f"user_blocks?select=blockee_id&blocker_id=eq.{up(cy['id'])}", cy["token"])
        if why := status_is(response, 200):
            return why
        return None if [row["blockee_id"] for row in response.json()] == [bo["id"]] else response.text[:200]
    await replay.call("B1", "blocks made", b1)

    async def b3():
        response = await replay.rest("DELETE", f"user_blocks?blocker_id=eq.{up(cy['id'])}&blockee_id=eq.{up(bo['id'])}", cy["token"])
        if why := status_is(response, 200, 204):
            return why
        again = await replay.rest("GET", f"user_blocks?select=blockee_id&blocker_id=eq.{up(cy['id'])}", cy["token"])
        return None if again.json() == [] else f"still blocked: {again.text[:200]}"
    await replay.call("B3", "unblock", b3)

    # --- the social snapshot and the other RPCs ----------------------------------------------------
    async def r1():
        response = await replay.rest("POST", "rpc/is_display_name_taken", None, {"p_name": "ria rider"})
        return status_is(response, 200) or (None if response.json() is True else f"answered {response.text[:100]}")
    await replay.call("R1", "is a display name taken (anon)", r1)

    async def r2():
        response = await replay.rest("POST", "rpc/get_social_snapshot", ria["token"], {"p_resort_id": "whistler-blackcomb"})
        if why := status_is(response, 200):
            return why
        body = response.json()
        if not isinstance(body.get("generation"), int) or not isinstance(body.get("friends"), list):
            return f"not the app's snapshot shape: {response.text[:200]}"
        return decodes_all(body.get("pending_received", []), FRIENDSHIP) or decodes_all(body.get("pending_sent", []), FRIENDSHIP)
    await replay.call("R2", "social snapshot for a resort", r2)

    async def r4():
        response = await replay.rest("POST", "rpc/find_users_by_emails", ria["token"], {"emails": ["bo@powdermeet.test"]})
        return status_is(response, 200) or decodes_all(response.json(), USER_PROFILE)
    await replay.call("R4", "contacts by email", r4)

    async def r5():
        response = await replay.rest("POST", "rpc/find_users_by_phones", ria["token"], {"phones": ["+15555550100"]})
        return status_is(response, 200) or decodes_all(response.json(), USER_PROFILE)
    await replay.call("R5", "contacts by phone", r5)

    # --- meets ------------------------------------------------------------------------------------
    meet = {}

    async def m1():
        now = datetime.datetime.now(datetime.timezone.utc)
        body = {"sender_id": up(ria["id"]), "receiver_id": up(bo["id"]), "resort_id": "whistler-blackcomb",
                "meeting_node_id": "n-roundhouse", "meeting_node_elevation": 1850.0, "meeting_node_display_name": "Roundhouse",
                "sender_eta_seconds": 420.0, "receiver_eta_seconds": 380.0, "status": "pending",
                "expires_at": (now + datetime.timedelta(minutes=30)).isoformat(timespec="milliseconds").replace("+00:00", "Z")}
        response = await replay.rest("POST", "meet_requests?select=*", ria["token"], body, accept="application/vnd.pgrst.object+json",
                                     prefer="return=representation")
        if why := status_is(response, 201) or decodes(response.json(), MEET_REQUEST):
            return why
        meet["id"] = response.json()["id"]
    await replay.call("M1", "send a meet", m1)

    async def meet_patch(token, body):
        if "id" not in meet:
            return "M1 made no meet"
        return status_is(await replay.rest("PATCH", f"meet_requests?id=eq.{up(meet['id'])}", token, body), 200, 204)

    async def m6():
        response = await replay.rest("GET", f"meet_requests?select=*&receiver_id=eq.{up(bo['id'])}&status=eq.pending"
                                     "&order=created_at.desc.nullslast", bo["token"])
        return status_is(response, 200) or decodes_all(response.json(), MEET_REQUEST, at_least=1)
    await replay.call("M6", "incoming meets", m6)

    async def m7():
        response = await replay.rest("GET", f"meet_requests?select=*&sender_id=eq.{up(ria['id'])}&status=eq.pending"
                                     "&order=created_at.desc.nullslast", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), MEET_REQUEST, at_least=1)
    await replay.call("M7", "sent meets", m7)

    async def m8():
        if "id" not in meet:
            return "M1 made no meet"
        response = await replay.rest("GET", f"meet_requests?select=*&sender_id=eq.{up(ria['id'])}&id=in.({up(meet['id'])})", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), MEET_REQUEST, at_least=1)
    await replay.call("M8", "poll my pending", m8)

    await replay.call("M2", "accept a meet", lambda: meet_patch(bo["token"], {"status": "accepted"}))
    await replay.call("M5", "live ETA", lambda: meet_patch(ria["token"], {"sender_eta_seconds": 300.0}))
    await replay.call("M4", "end a meet", lambda: meet_patch(ria["token"], {"status": "expired"}))

    async def m3():
        meet.pop("id", None)
        if why := await m1():
            return f"a second meet: {why}"
        return await meet_patch(bo["token"], {"status": "declined"})
    await replay.call("M3", "decline a meet", m3)

    # --- live presence ----------------------------------------------------------------------------
    async def l2():
        body = {"user_id": up(ria["id"]), "resort_id": "whistler-blackcomb", "lat": 50.0598, "lon": -122.9573,
                "captured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "accuracy_m": 8.0}
        response = await replay.rest("POST", "live_presence?on_conflict=user_id", ria["token"], body,
                                     prefer="resolution=merge-duplicates,return=representation")
        return status_is(response, 200, 201)
    await replay.call("L2", "publish a position", l2)

    async def l1():
        response = await replay.rest("GET", f"live_presence?select=user_id,lat,lon,captured_at,accuracy_m&resort_id=eq.whistler-blackcomb"
                                     f"&user_id=neq.{up(bo['id'])}", bo["token"])
        if why := status_is(response, 200):
            return why
        rows = response.json()
        return None if any(row.get("user_id") == ria["id"] for row in rows) else f"the friend's position is missing: {rows}"
    await replay.call("L1", "friends' positions at a resort", l1)

    async def l3():
        return status_is(await replay.rest("DELETE", f"live_presence?user_id=eq.{up(ria['id'])}", ria["token"]), 200, 204)
    await replay.call("L3", "clear my position", l3)

    # --- activity ---------------------------------------------------------------------------------
    run = {"profile_id": up(ria["id"]), "resort_id": "whistler-blackcomb", "edge_id": "e-1", "difficulty": "blue", "speed_ms": 9.1,
           "peak_speed_ms": 14.2, "duration_s": 180.0, "vertical_m": 410.0, "distance_m": 1600.0, "max_grade_deg": 24.0,
           "run_at": "2026-01-10T10:00:00.000Z", "dedup_hash": "d1", "source": "gpx", "source_file_hash": "f1",
           "trail_name": "Pony Trail", "conditions_fp": "default"}

    async def i1():
        response = await replay.rest("POST", "imported_runs?columns=" + ",".join(sorted(run)), ria["token"], [run])
        return status_is(response, 201, 204)
    await replay.call("I1", "import runs", i1)

    async def i2():
        live = run | {"dedup_hash": "d2", "source": "live", "run_at": "2026-01-10T11:00:00.000Z"}
        response = await replay.rest("POST", "imported_runs?on_conflict=profile_id,dedup_hash&columns=" + ",".join(sorted(live)),
                                     ria["token"], [live], prefer="resolution=ignore-duplicates,return=representation")
        return status_is(response, 200, 201)
    await replay.call("I2", "a live-recorded run", i2)

    async def i3():
        restored = {k: v for k, v in run.items() if k != "conditions_fp"} | {"dedup_hash": "d3", "source": "powdermeet"}
        response = await replay.rest("POST", "imported_runs?on_conflict=profile_id,dedup_hash&columns=" + ",".join(sorted(restored)),
                                     ria["token"], [restored], prefer="resolution=ignore-duplicates,return=representation")
        return status_is(response, 200, 201)
    await replay.call("I3", "restore from a backup", i3)

    runs = {}

    async def i4():
        response = await replay.rest("GET", f"imported_runs?select=*&profile_id=eq.{up(ria['id'])}&order=run_at.desc.nullslast", ria["token"])
        if why := status_is(response, 200) or decodes_all(response.json(), IMPORTED_RUN, at_least=1):
            return why
        runs["ids"] = [row["id"] for row in response.json()]
    await replay.call("I4", "runs viewer", i4)

    async def i5():
        response = await replay.rest("GET", f"imported_runs?select=id&profile_id=eq.{up(ria['id'])}&limit=1", ria["token"])
        return status_is(response, 200)
    await replay.call("I5", "any run left", i5)

    async def i6():
        response = await replay.rest("GET", f"imported_runs?select=id,edge_id,difficulty,run_at&profile_id=eq.{up(ria['id'])}"
                                     "&resort_id=eq.whistler-blackcomb&or=(trail_name.is.null,trail_name.eq.)", ria["token"])
        return status_is(response, 200)
    await replay.call("I6", "runs without a trail name", i6)

    async def i7():
        if not runs.get("ids"):
            return "I4 listed no runs"
        return status_is(await replay.rest("PATCH", f"imported_runs?id=eq.{up(runs['ids'][0])}", ria["token"], {"trail_name": "Upper Pony"}),
                         200, 204)
    await replay.call("I7", "rename a run's trail", i7)

    async def r6():
        return status_is(await replay.rest("POST", "rpc/recompute_profile_stats", ria["token"], {"uid": up(ria["id"])}), 200, 204)
    await replay.call("R6", "recompute stats", r6)

    async def r7():
        return status_is(await replay.rest("POST", "rpc/recompute_profile_edge_speeds", ria["token"], {"uid": up(ria["id"])}), 200, 204)
    await replay.call("R7", "recompute edge speeds", r7)

    async def s1():
        response = await replay.rest("GET", f"profile_stats?select=*&profile_id=eq.{up(ria['id'])}&limit=1", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), PROFILE_STATS)
    await replay.call("S1", "profile stats", s1)

    async def e1():
        response = await replay.rest("GET", f"profile_edge_speeds?select=*&profile_id=eq.{up(ria['id'])}", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), PER_EDGE_SPEED)
    await replay.call("E1", "edge speeds", e1)

    async def i9():
        if not runs.get("ids"):
            return "I4 listed no runs"
        return status_is(await replay.rest("DELETE", f"imported_runs?id=in.({up(runs['ids'][0])})", ria["token"]), 200, 204)
    await replay.call("I9", "delete selected runs", i9)

    async def i8():
        return status_is(await replay.rest("DELETE", f"imported_runs?profile_id=eq.{up(ria['id'])}", ria["token"]), 200, 204)
    await replay.call("I8", "delete all runs", i8)

    # --- catalog, devices, mountain -----------------------------------------------------------------
    async def k1():
        response = await replay.rest("GET", "skis_catalog?select=*&order=brand.asc.nullslast,model.asc.nullslast", ria["token"])
        return status_is(response, 200) or decodes_all(response.json(), SKI)
    await replay.call("K1", "ski catalog", k1)

    async def d1():
        body = {"profile_id": up(ria["id"]), "token": secrets.token_hex(32), "platform": "ios", "environment": "sandbox",
                "updated_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")}
        response = await replay.rest("POST", "device_tokens?on_conflict=profile_id,token", ria["token"], body,
                                     prefer="resolution=merge-duplicates,return=representation")
        return status_is(response, 200, 201)
    await replay.call("D1", "register an APNs token", d1)

    async def sp1():
        response = await replay.rest("GET", "resort_snapshot_pins?select=resort_id,snapshot_date")
        return status_is(response, 200) or (None if isinstance(response.json(), list) else response.text[:200])
    await replay.call("SP1", "snapshot pins, signed out", sp1)

    async def cm1():
        response = await http.get(f"{A}/rest/v1/current_resort_canonical_manifest?select=resort_id",
                                  headers={"apikey": KEY, "Authorization": f"Bearer {KEY}"})
        return status_is(response, 200) or (None if isinstance(response.json(), list) else response.text[:200])
    await replay.call("CM1", "active manifests, anon key, raw", cm1)

    # --- edge functions -----------------------------------------------------------------------------
    async def function(name, body, token=None):
        response = await http.post(f"{A}/functions/v1/{name}", headers={"apikey": KEY, "Authorization": f"Bearer {token or KEY}",
                                                                         "Content-Type": "application/json"}, json=body)
        return response

    async def fn1():
        # A resort with no manifest: 404, which the app takes as "no canonical graph".
        missing = await function("get-resort-graph", {"resort_id": "whistler-blackcomb"}, ria["token"])
        if missing.status_code != 404 or "error" not in missing.json():
            return f"a resort without a manifest answered {missing.status_code}: {missing.text[:200]}"
        # A published one, signed out (the anon key): fetch, then the blob, inflated, hashes to sha256.
        response = await function("get-resort-graph", {"resort_id": CONFIG["graph_resort"]})
        if why := status_is(response, 200):
            return why
        found = response.json()
        if found.get("status") != "fetch" or not found.get("blob_url") or found.get("current_manifest_version") != found.get("manifest_version"):
            return f"not a fetch answer: {response.text[:300]}"
        blob = await http.get(found["blob_url"])
        if why := status_is(blob, 200):
            return f"the blob: {why}"
        if hashlib.sha256(zlib.decompress(blob.content, -15)).hexdigest() != found["sha256"]:
            return "the inflated blob does not hash to sha256"
        if not found.get("live_status_url"):
            return f"no live_status_url though the resort has a status sidecar: {found}"
        live = await http.get(found["live_status_url"])
        body = live.json() if live.status_code == 200 else {}
        if not (isinstance(body.get("lifts"), dict) and isinstance(body.get("trails"), dict) and body.get("resort_id") == CONFIG["graph_resort"]
                and (body["lifts"] or body["trails"])):
            return f"the live status is not the app's shape: {live.status_code} {live.text[:300]}"
        again = await function("get-resort-graph", {"resort_id": CONFIG["graph_resort"], "cached_manifest_version": found["manifest_version"],
                                                    "cached_content_sha256": found["sha256"]}, ria["token"])
        return None if again.status_code == 200 and again.json().get("status") == "cache_valid" else f"the cached graph: {again.text[:200]}"
    await replay.call("FN1", "get-resort-graph", fn1)

    async def graph_resort():
        """The published test resort's catalog row (test set-up, not an app call)."""
        found = await http.get(f"{A}/rest/v1/resorts?id=eq.{CONFIG['graph_resort']}&select=*",
                               headers={"apikey": CONFIG["anon"], "Accept-Profile": "mountain"})
        rows = found.json() if found.status_code == 200 else []
        return rows[0] if rows else None

    async def fn2():
        # As the app sends it after not_built: a session, only resort_id; 200. A resort without a manifest is a 404.
        asked = await function("build-resort-graph", {"resort_id": CONFIG["graph_resort"]}, ria["token"])
        if why := status_is(asked, 200):
            return why
        if asked.json().get("status") != "published":
            return f"the published resort answered {asked.text[:200]}"
        missing = await function("build-resort-graph", {"resort_id": "whistler-blackcomb"}, ria["token"])
        if missing.status_code != 404:
            return f"a resort without a manifest answered {missing.status_code}"
        # The operator's build (service role) of the published tuple answers the stored identity as-is.
        graph = (await function("get-resort-graph", {"resort_id": CONFIG["graph_resort"]})).json()
        built = await http.post(f"{A}/functions/v1/build-resort-graph", json={
            "resort_id": CONFIG["graph_resort"], "manifest_version": graph.get("manifest_version"), "graph_version": graph.get("graph_version")},
            headers={"apikey": CONFIG["service"], "Authorization": f"Bearer {CONFIG['service']}"})
        body = built.json() if built.status_code == 200 else {}
        if not (body.get("status") == "ready" and body.get("cached") is True and body.get("sha256") == graph.get("sha256")):
            return f"the operator's build answered {built.status_code} {built.text[:300]}"
        bad = await http.post(f"{A}/functions/v1/build-resort-graph", json={"resort_id": CONFIG["graph_resort"], "snapshot_date": "last week"},
                              headers={"apikey": CONFIG["service"], "Authorization": f"Bearer {CONFIG['service']}"})
        if bad.status_code != 400 or "YYYY-MM-DD" not in bad.text:
            return f"a bad snapshot_date answered {bad.status_code} {bad.text[:200]}"
        return None
    await replay.call("FN2", "build-resort-graph", fn2)

    async def fn3():
        resort = await graph_resort()
        if not resort:
            return "the test resort is not in the catalog"
        response = await function("snapshot-resort", {"resort_id": resort["id"], "south": resort["lat_min"], "west": resort["lon_min"],
                                                      "north": resort["lat_max"], "east": resort["lon_max"],
                                                      "pinned_snapshot_date": "2026-04-28"}, ria["token"])
        if why := status_is(response, 200):
            return why
        answer = response.json()
        if answer.get("status", "ready") != "ready" or not answer.get("osm_url") or not answer.get("elevation_url") \
                or not isinstance(answer.get("snapshot_date"), str):
            return f"not a ready snapshot: {response.text[:300]}"
        # Both URLs as URLSession.shared.data(from:) fetches them: no headers at all.
        osm, elevation = await asyncio.gather(http.get(answer["osm_url"]), http.get(answer["elevation_url"]))
        if why := status_is(osm, 200) or status_is(elevation, 200):
            return f"a snapshot URL: {why}"
        elements = osm.json().get("elements")
        if not isinstance(elements, list) or not elements:
            return f"the OSM snapshot has no elements: {osm.text[:200]}"
        nodes = {e["id"]: e for e in elements if e.get("type") == "node"}
        ways = [e for e in elements if e.get("type") == "way"]
        for element in elements:
            if not (isinstance(element.get("id"), int) and all(isinstance(v, str) for v in (element.get("tags") or {}).values())):
                return f"an element the app cannot decode: {element}"
        if not ways or any(len(w.get("nodes", [])) < 2 or any(n not in nodes for n in w["nodes"]) for w in ways):
            return "a way with fewer than two nodes, or a node the snapshot lacks"
        heights = elevation.json()
        if not isinstance(heights, dict) or not all(isinstance(v, (int, float)) for v in heights.values()):
            return f"the elevation map is not String: Double: {elevation.text[:200]}"
        # The app looks up the vertices without an ele tag (the synthetic resort tags every one: an empty map).
        keys = {f"{n['lat']:.6f},{n['lon']:.6f}" for w in ways for n in (nodes[i] for i in w["nodes"]) if "ele" not in (n.get("tags") or {})}
        if not set(heights) <= keys or (keys and not heights):
            return "the elevation map's keys are not the app's %.6f,%.6f of the untagged vertices"
        # A URL whose token was made for another file opens nothing.
        forged = answer["elevation_url"].split("?")[0] + "?" + answer["osm_url"].split("?")[1]
        if (await http.get(forged)).status_code != 400:
            return "the OSM URL's token opened the elevation file"
        return None
    await replay.call("FN3", "snapshot-resort", fn3)

    # --- storage ------------------------------------------------------------------------------------
    jpeg = bytes.fromhex("ffd8ffe000104a46494600010100000100010000ffd9")
    avatar = f"avatars/{ria['id'].lower()}/avatar.jpg"

    async def st1():
        response = await http.post(f"{A}/storage/v1/object/{avatar}", content=jpeg,
                                   headers={"apikey": KEY, "Authorization": f"Bearer {ria['token']}", "Content-Type": "image/jpeg",
                                            "x-upsert": "true"})
        return status_is(response, 200, 201)
    await replay.call("ST1", "upload an avatar", st1)

    async def st2():
        response = await http.get(f"{A}/storage/v1/object/public/{avatar}")
        return status_is(response, 200) or (None if response.content == jpeg else "other bytes came back")
    await replay.call("ST2", "the avatar's public URL, no headers", st2)

    async def st3():
        if replay.results.get("ST1") is not None:
            return "ST1 uploaded no avatar to delete"
        response = await http.request("DELETE", f"{A}/storage/v1/object/avatars", content=json.dumps({"prefixes": [avatar.split("/", 1)[1]]}),
                                      headers={"apikey": KEY, "Authorization": f"Bearer {ria['token']}", "Content-Type": "application/json"})
        return status_is(response, 200)
    await replay.call("ST3", "delete the avatar", st3)

    # --- realtime -----------------------------------------------------------------------------------
    socket_url = A.replace("http", "ws", 1) + f"/realtime/v1/websocket?apikey={KEY}&vsn=1.0.0"

    async def join(socket, topic, token, changes=(), ref="1"):
        await socket.send(json.dumps({"topic": f"realtime:{topic}", "event": "phx_join", "ref": ref, "join_ref": ref, "payload": {
            "config": {"broadcast": {"ack": False, "self": False}, "presence": {"key": "", "enabled": False},
                       "postgres_changes": list(changes), "private": False},
            "access_token": token, "version": "2.41.1"}}))
        return await reply(socket, ref)

    async def reply(socket, ref):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(socket.recv(), deadline - time.monotonic()))
            if message.get("event") == "phx_reply" and message.get("ref") == ref:
                return message["payload"]
        return {"status": "timeout"}

    async def change(socket, table, kind):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            data = message.get("payload", {}).get("data", {})
            if message.get("event") == "postgres_changes" and data.get("table") == table and data.get("type") == kind:
                return decodes(data.get("record"), MEET_REQUEST) if table == "meet_requests" else None
        return f"no {kind} on public.{table} arrived"

    def joined(payload):
        return None if payload.get("status") == "ok" else f"join answered {json.dumps(payload)[:300]}"

    async def rt1():
        uid = up(ria["id"])
        changes = [{"event": "INSERT", "schema": "public", "table": "friendships", "filter": f"addressee_id=eq.{uid}"},
                   {"event": "UPDATE", "schema": "public", "table": "friendships", "filter": f"requester_id=eq.{uid}"},
                   {"event": "UPDATE", "schema": "public", "table": "friendships", "filter": f"addressee_id=eq.{uid}"},
                   {"event": "DELETE", "schema": "public", "table": "friendships", "filter": f"requester_id=eq.{uid}"},
                   {"event": "DELETE", "schema": "public", "table": "friendships", "filter": f"addressee_id=eq.{uid}"}]
        async with websockets.connect(socket_url) as socket:
            if why := joined(await join(socket, f"friends:{uid}", ria["token"], changes)):
                return why
            # A new request to Ria is an INSERT she hears about.
            await replay.rest("POST", "rpc/send_friend_request", cy["token"], {"p_addressee_id": uid})
            return await change(socket, "friendships", "INSERT")
    await replay.call("RT1", "friends:<UID> postgres_changes on public.friendships", rt1)

    async def rt2():
        uid = up(ria["id"])
        changes = [{"event": "INSERT", "schema": "public", "table": "meet_requests", "filter": f"receiver_id=eq.{uid}"},
                   {"event": "UPDATE", "schema": "public", "table": "meet_requests", "filter": f"sender_id=eq.{uid}"},
                   {"event": "UPDATE", "schema": "public", "table": "meet_requests", "filter": f"receiver_id=eq.{uid}"}]
        async with websockets.connect(socket_url) as socket:
            if why := joined(await join(socket, f"meets:{uid}", ria["token"], changes)):
                return why
            # Bo answering Ria's meet is an UPDATE she hears about.
            meet.pop("id", None)
            if why := await m1():
                return f"no meet to answer: {why}"
            await meet_patch(bo["token"], {"status": "accepted"})
            return await change(socket, "meet_requests", "UPDATE")
    await replay.call("RT2", "meets:<UID> postgres_changes on public.meet_requests", rt2)

    async def heard_pos(listener, enough, seconds=5):
        """The pos broadcasts a socket hears, as (topic, packet), for `seconds` or until `enough(them)`."""
        heard = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not enough(heard):
            try:
                message = json.loads(await asyncio.wait_for(listener.recv(), deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if message.get("event") == "broadcast" and message["payload"].get("event") == "pos":
                heard.append((message["topic"], message["payload"].get("payload", {})))
        return heard

    async def pos_on(topic):
        async with websockets.connect(socket_url) as sender, websockets.connect(socket_url) as listener:
            if why := joined(await join(listener, topic, bo["token"])) or joined(await join(sender, topic, ria["token"])):
                return why
            packet = {"u": up(ria["id"]), "n": "Ria", "lat": 50.0598, "lon": -122.9573, "at": int(time.time()), "acc": 8.0,
                      "r": "whistler-blackcomb"}
            await sender.send(json.dumps({"topic": f"realtime:{topic}", "event": "broadcast", "ref": "2", "join_ref": "1",
                                          "payload": {"type": "broadcast", "event": "pos", "payload": packet}}))
            arrivals = await heard_pos(listener, lambda heard: len(heard) >= 1)
            if not arrivals:
                return "the friend's pos never arrived"
            got = arrivals[0][1]
            # Swift's UUID(uuidString:) reads either case.
            same = str(got.get("u", "")).upper() == packet["u"] and got.get("lat") == packet["lat"] and got.get("r") == packet["r"]
            return None if same else f"pos arrived as {got}"
    await replay.call("RT3", "pos on pos:resort:<R>", lambda: pos_on("pos:resort:whistler-blackcomb"))

    async def rt4():
        # As the app does at a resort Summit knows: both join their own cell's nine channels and the resort's;
        # the sender sends each packet on the resort's channel and its own cell's; the friend hears it on the cell.
        centre = await graph_resort()
        if not centre:
            return "the test resort is not in the catalog"
        lat, lon, resort = centre["center_lat"], centre["center_lon"], CONFIG["graph_resort"]
        own = geohash6(lat, lon)
        cells = nine_cells(lat, lon)
        async with websockets.connect(socket_url) as sender, websockets.connect(socket_url) as listener:
            for socket, who in ((listener, bo), (sender, ria)):
                for index, cell in enumerate(cells + [None]):
                    topic = f"pos:cell:{cell}" if cell else f"pos:resort:{resort}"
                    if why := joined(await join(socket, topic, who["token"], ref=str(100 + index))):
                        return f"{topic}: {why}"
            packet = {"u": up(ria["id"]), "n": "Ria", "lat": lat, "lon": lon, "at": time.time(), "acc": 8.0, "r": resort}
            for topic, ref in ((f"pos:resort:{resort}", "100"), (f"pos:cell:{own}", str(100 + cells.index(own)))):
                await sender.send(json.dumps({"topic": f"realtime:{topic}", "event": "broadcast", "ref": "200", "join_ref": ref,
                                              "payload": {"type": "broadcast", "event": "pos", "payload": packet}}))
            both = {f"realtime:pos:cell:{own}", f"realtime:pos:resort:{resort}"}
            arrivals = await heard_pos(listener, lambda heard: both <= {topic for topic, _ in heard})
            for _, got in arrivals:
                if str(got.get("u", "")).upper() != packet["u"] or got.get("lat") != lat or got.get("r") != resort:
                    return f"pos arrived as {got}"
            heard = {topic for topic, _ in arrivals}
            if f"realtime:pos:cell:{own}" not in heard:
                return f"the friend's pos never arrived on pos:cell:{own} (heard on {sorted(heard)})"
            others = heard - {f"realtime:pos:cell:{own}", f"realtime:pos:resort:{resort}"}
            return f"the pos also arrived on cells it is not in: {sorted(others)}" if others else None
    await replay.call("RT4", "pos on pos:cell:<geohash6>", rt4)

    async def rt5():
        async with websockets.connect(socket_url) as socket:
            await socket.send(json.dumps({"topic": "phoenix", "event": "heartbeat", "ref": "9", "payload": {}}))
            beat = await reply(socket, "9")
            if beat.get("status") != "ok":
                return f"heartbeat answered {beat}"
            if why := joined(await join(socket, "anything", ria["token"], ref="10")):
                return why
            await socket.send(json.dumps({"topic": "realtime:anything", "event": "access_token", "ref": "11", "join_ref": "10",
                                          "payload": {"access_token": ria["token"]}}))
            await socket.send(json.dumps({"topic": "realtime:anything", "event": "phx_leave", "ref": "12", "join_ref": "10", "payload": {}}))
            left = await reply(socket, "12")
            return None if left.get("status") == "ok" else f"phx_leave answered {left}"
    await replay.call("RT5", "heartbeat, access_token, phx_leave", rt5)

    # --- the end of an account ------------------------------------------------------------------
    async def f7():
        a, b = up(ria["id"]), up(bo["id"])
        response = await replay.rest("DELETE", f"friendships?or=(and(requester_id.eq.{a},addressee_id.eq.{b}),"
                                               f"and(requester_id.eq.{b},addressee_id.eq.{a}))", ria["token"])
        return status_is(response, 200, 204)
    await replay.call("F7", "unfriend", f7)

    async def au4():
        response = await http.post(f"{A}/auth/v1/logout?scope=global", headers=headers(bo["token"]))
        return status_is(response, 204)
    await replay.call("AU4", "sign out everywhere", au4)

    async def r8():
        return status_is(await replay.rest("POST", "rpc/delete_user_account", cy["token"]), 200, 204)
    await replay.call("R8", "delete the account", r8)

    working = sorted(id for id, why in replay.results.items() if why is None)
    check(len(replay.results) == 72, "every call of the contract was replayed", f"{len(replay.results)} calls")
    print(f"# the PowderMeet contract: {len(working)} of 72 calls work", flush=True)
    await http.aclose()
    finish()


asyncio.run(main())
