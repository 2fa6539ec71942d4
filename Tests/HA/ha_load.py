"""A bounded mixed load through `summit serve` while scripts/test-ha kills PostgreSQL
nodes under it, and the check of every write the gateway acknowledged.

Run by scripts/test-ha as `python ha_load.py CONFIG.json`; CONFIG names the gateway
URL, its anon key, a libpq conninfo for the cluster's primary, and the commands
that kill the primary and a synchronous standby. Clients sign up, ask for
friendships, push grid rows (sync_push by row id) and send positions; each answer
is recorded. After each kill the figures are printed, and at the end every
acknowledged write is looked up on the new primary.
"""

import asyncio
import json
import subprocess
import sys
import time
import uuid

import httpx
import websockets

CONFIG = json.load(open(sys.argv[1]))
URL, KEY = CONFIG["gateway"], CONFIG["anon"]
CLIENTS = 6


class Record:
    def __init__(self):
        self.acknowledged = []   # (kind, key) the gateway answered 2xx for
        self.failures = []       # (time, kind, answer) of the rest
        self.successes = []      # (sent, answered) times of acknowledged writes
        self.relay_ok = False

    def ok(self, kind, key, sent):
        self.acknowledged.append((kind, key))
        self.successes.append((sent, time.monotonic()))

    def failed(self, kind, answer):
        self.failures.append((time.monotonic(), kind, answer))


async def client(http, record, stop, number):
    """One person's writes, until `stop` is set."""
    email = f"ha{number}-{uuid.uuid4().hex[:8]}@example.test"
    token, user = None, None
    while not stop.is_set() and token is None:
        sent = time.monotonic()
        try:
            answer = await http.post(f"{URL}/auth/v1/signup", json={"email": email, "password": "correct horse battery",
                                                                   "data": {"username": f"ha{number}{uuid.uuid4().hex[:6]}"}},
                                     headers={"apikey": KEY})
        except httpx.HTTPError as error:
            record.failed("sign-up", type(error).__name__)
            await asyncio.sleep(0.5)
            continue
        if answer.status_code == 200:
            body = answer.json()
            token, user = body["access_token"], body["user"]["id"]
            record.ok("sign-up", email, sent)
        else:
            record.failed("sign-up", f"{answer.status_code} {answer.headers.get('retry-after', '-')} {answer.text[:80]}")
            await asyncio.sleep(0.5)
    headers = {"apikey": KEY, "Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    n = 0
    while not stop.is_set():
        n += 1
        # A grid row pushed by its id: a retry of the same row cannot apply twice.
        board = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{email}/{n}"))
        row = {"id": board, "grid_id": CONFIG["starter_grid"], "audience": "private", "created_at": "2026-01-01T00:00:00Z",
               "updated_at": "2026-01-01T00:00:00Z", "device_id": str(uuid.uuid4())}
        for kind, call in (("sync-push", lambda: http.post(f"{URL}/rest/v1/rpc/sync_push", json={"p_table": "user_grids", "p_rows": [row]},
                                                           headers={**headers, "Content-Profile": "grids"})),
                           ("position", lambda: http.post(f"{URL}/rest/v1/rpc/broadcast_position", headers={**headers, "Content-Profile": "meet"},
                                                          json={"p_resort_id": "ha-resort", "p_lat": 46.0 + n * 1e-5, "p_lon": 7.0,
                                                                "p_captured_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z"}))):
            sent = time.monotonic()
            try:
                answer = await call()
            except httpx.HTTPError as error:
                record.failed(kind, type(error).__name__)
                await asyncio.sleep(0.2)
                continue
            if answer.status_code == 200 and (kind != "sync-push" or answer.json()[0]["outcome"] in ("applied", "ignored")):
                record.ok(kind, board if kind == "sync-push" else user, sent)
            else:
                record.failed(kind, f"{answer.status_code} retry-after={answer.headers.get('retry-after', '-')} {answer.text[:80]}")
                # A client told to retry waits as told (a bounded load, not a storm).
                await asyncio.sleep(float(answer.headers.get("retry-after", "0.2")))
        await asyncio.sleep(0.05)


async def watcher(http, stop, events):
    """A friend of a poster, following positions at the resort through realtime: what it
    hears is recorded as (time, 'gap' | 'position')."""
    people = []
    for name in ("hawatch", "hapost"):
        email = f"{name}-{uuid.uuid4().hex[:8]}@example.test"
        body = (await http.post(f"{URL}/auth/v1/signup", json={"email": email, "password": "correct horse battery",
                                                               "data": {"username": f"{name}{uuid.uuid4().hex[:6]}"}},
                                headers={"apikey": KEY})).json()
        people.append((body["access_token"], body["user"]["id"]))
    (watch_token, watch_id), (post_token, post_id) = people
    for token, other in ((watch_token, post_id), (post_token, watch_id)):
        await http.post(f"{URL}/rest/v1/rpc/send_friend_request", json={"p_user_id": other},
                        headers={"apikey": KEY, "Authorization": f"Bearer {token}", "Content-Profile": "social"})
    socket_url = URL.replace("http", "ws", 1) + f"/realtime/v1/websocket?apikey={KEY}&vsn=1.0.0"

    async def post():
        n = 0
        while not stop.is_set():
            n += 1
            try:
                await http.post(f"{URL}/rest/v1/rpc/broadcast_position", headers={"apikey": KEY, "Authorization": f"Bearer {post_token}",
                                                                                  "Content-Profile": "meet"},
                                json={"p_resort_id": "ha-resort", "p_lat": 46.0 + n * 1e-5, "p_lon": 7.0,
                                      "p_captured_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z"})
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.3)

    poster = asyncio.create_task(post())
    async with websockets.connect(socket_url) as socket:
        await socket.send(json.dumps({"topic": "realtime:pos:resort:ha-resort", "event": "phx_join", "ref": "1", "join_ref": "1",
                                      "payload": {"config": {"broadcast": {"self": False}}, "access_token": watch_token}}))
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
            except asyncio.TimeoutError:
                continue
            payload = message.get("payload", {})
            if message.get("event") == "system" and payload.get("extension") == "relay":
                events.append((time.monotonic(), "gap"))
            elif message.get("event") == "broadcast" and payload.get("payload", {}).get("u", "").lower() == post_id.lower():
                events.append((time.monotonic(), "position"))
    await poster


def psql(sql):
    return subprocess.run(["psql", CONFIG["conninfo"], "-XAtc", sql], capture_output=True, text=True, check=True).stdout.strip()


async def round_with(kill, name):
    record, stop, heard = Record(), asyncio.Event(), []
    async with httpx.AsyncClient(timeout=10) as http:
        tasks = [asyncio.create_task(client(http, record, stop, i)) for i in range(CLIENTS)]
        tasks.append(asyncio.create_task(watcher(http, stop, heard)))
        await asyncio.sleep(4)
        before = len(record.acknowledged)
        killed_at = time.monotonic()
        killed = subprocess.run(kill, shell=True, capture_output=True, text=True)
        print(killed.stdout.strip(), flush=True)
        # Keep the load on until writes sent after the kill have flowed for a while (or give up after 60 s).
        while killed.returncode == 0 and time.monotonic() - killed_at < 60:
            await asyncio.sleep(0.5)
            after = [answered for sent, answered in record.successes if sent > killed_at]
            if len(after) > 20 and after[-1] - after[0] > 3:
                break
        stop.set()
        await asyncio.gather(*tasks)
    if killed.returncode != 0:
        sys.exit(f"{name}: the kill failed: {killed.stderr.strip()[-300:]}")
    # The first write sent after the kill that was acknowledged (requests in flight at the kill do not count).
    first = min((answered for sent, answered in record.successes if sent > killed_at), default=None)
    during = [f for f in record.failures if f[0] > killed_at and (first is None or f[0] <= first)]
    answers = {}
    for _, kind, answer in during:
        answers[answer.split(" {")[0][:60]] = answers.get(answer.split(" {")[0][:60], 0) + 1
    print(f"# {name}: {before} writes acknowledged before the kill, {len(record.acknowledged)} in all", flush=True)
    print(f"# {name}: seconds from the kill to the first successful write: "
          + (f"{first - killed_at:.1f}" if first else "never"), flush=True)
    print(f"# {name}: requests failed during the switch: {len(during)} " + json.dumps(answers), flush=True)
    gap = next((t for t, kind in heard if kind == "gap" and t > killed_at), None)
    again = any(kind == "position" and t > (gap or killed_at) + 1 for t, kind in heard)
    print(f"# {name}: the relay subscriber got the gap signal: {'yes' if gap else 'no'}; friends' positions after "
          + ("it" if gap else "the kill") + f": {'yes' if again else 'no'}", flush=True)
    record.relay_ok = gap is not None and again
    return record


async def main():
    records = [await round_with(CONFIG["kill_primary"], "primary killed"),
               await round_with(CONFIG["kill_standby"], "synchronous standby killed")]
    # The primary's death drops every database connection: the relay must say so and recover.
    relay_ok = records[0].relay_ok
    lost = 0
    for record in records:
        emails = [k for kind, k in record.acknowledged if kind == "sign-up"]
        boards = [k for kind, k in record.acknowledged if kind == "sync-push"]
        found_users = int(psql("select count(*) from auth.users where email in (" + ",".join(f"'{e}'" for e in emails) + ")")) if emails else 0
        found_boards = int(psql("select count(*) from grids.user_grids where id in (" + ",".join(f"'{b}'" for b in set(boards)) + ")")) if boards else 0
        lost += (len(emails) - found_users) + (len(set(boards)) - found_boards)
    duplicates = int(psql("select count(*) - count(distinct id) from grids.user_grids"))
    print(f"acknowledged writes lost: {lost}", flush=True)
    print(f"duplicates applied: {duplicates}", flush=True)
    sys.exit(0 if lost == 0 and duplicates == 0 and relay_ok else 1)


asyncio.run(main())
