"""A bounded mixed load through two `summit serve` while scripts/test-ha kills PostgreSQL
nodes under them, and the check of every write the gateways acknowledged.

Run by scripts/test-ha as `python ha_load.py CONFIG.json`. CONFIG names the gateways
(one on the libpq multi-host URL, one through HAProxy), their keys, a conninfo for the
cluster's primary and one per node, and the commands that kill the primary and a
synchronous standby.

Six clients in three pairs (the two of a pair on different gateways) sign up, befriend
each other, push grid rows (sync_push by row id), send positions, sign up strangers and
send them friend requests, and run meets through PowderMeet's face (send, accept, end);
they read the Atlas and each other's profiles. Two readers read the same through the
platform's client library (supabase-py), and the read pools answer them. Two
friends follow positions over realtime, each on the other gateway from the poster. Each
answer is recorded; after each kill the figures are printed, and at the end every
acknowledged write is looked up on the new primary, and the scheduler's history is
checked for runs of one job that overlapped.
"""

import asyncio
import json
import subprocess
import sys
import time
import uuid

import httpx
import postgrest
import websockets
from supabase import AsyncClientOptions, acreate_client

CONFIG = json.load(open(sys.argv[1]))
GATEWAYS, KEY, POWDERMEET_KEY = CONFIG["gateways"], CONFIG["anon"], CONFIG["powdermeet_anon"]
CLIENTS = 6
MEET_RANK = {"pending": 0, "accepted": 1, "expired": 2, "declined": 2}


class Record:
    def __init__(self):
        self.acknowledged = []   # (kind, key) the gateway answered 2xx for
        self.failures = []       # (time, kind, answer) of the rest
        self.successes = []      # (sent, answered) times of acknowledged writes
        self.reads = {"client": 0, "reader": 0}
        self.read_failures = {"client": [], "reader": []}  # (time, answer)
        self.relay_ok = False
        self.resumed = False
        self.on_standbys = 0

    def ok(self, kind, key, sent):
        self.acknowledged.append((kind, key))
        self.successes.append((sent, time.monotonic()))

    def failed(self, kind, answer):
        self.failures.append((time.monotonic(), kind, answer))


def stamp():
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z"


def describe(answer):
    return f"{answer.status_code} retry-after={answer.headers.get('retry-after', '-')} {answer.text[:80]}"


async def write(http, record, kind, call, accept=lambda answer: True):
    """One write: the answer when acknowledged, else None after waiting as the gateway said."""
    sent = time.monotonic()
    try:
        answer = await call()
    except httpx.HTTPError as error:
        record.failed(kind, type(error).__name__)
        await asyncio.sleep(0.2)
        return None, sent
    if answer.status_code in (200, 201, 204) and accept(answer):
        return answer, sent
    record.failed(kind, describe(answer))
    # A client told to retry waits as told (a bounded load, not a storm), a few seconds at most.
    await asyncio.sleep(min(float(answer.headers.get("retry-after", "0.2")), 5))
    return None, sent


async def sign_up(http, record, url, name, stop):
    """Signs up until acknowledged (or stopped): (token, user id)."""
    email = f"{name}-{uuid.uuid4().hex[:8]}@example.test"
    while not stop.is_set():
        answer, sent = await write(http, record, "sign-up", lambda: http.post(
            f"{url}/auth/v1/signup", json={"email": email, "password": "correct horse battery",
                                           "data": {"username": f"{name}{uuid.uuid4().hex[:6]}"}}, headers={"apikey": KEY}))
        if answer is not None:
            body = answer.json()
            record.ok("sign-up", email, sent)
            return body["access_token"], body["user"]["id"]
    return None, None


def headers(token, profile=None, key=KEY):
    result = {"apikey": key, "Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    if profile:
        result["Content-Profile"] = profile
    return result


async def client(http, record, stop, number, people):
    """One person's writes and reads, until `stop` is set."""
    url = GATEWAYS[number % 2]
    token, user = await sign_up(http, record, url, f"ha{number}", stop)
    if token is None:
        return
    partner = number ^ 1
    people[number] = (token, user, url)
    while partner not in people and not stop.is_set():
        await asyncio.sleep(0.05)
    if stop.is_set():
        return
    partner_token, partner_id, partner_url = people[partner]
    # Both ask: the second request makes them friends.
    while not stop.is_set():
        answer, sent = await write(http, record, "friend-request", lambda: http.post(
            f"{url}/rest/v1/rpc/send_friend_request", json={"p_user_id": partner_id}, headers=headers(token, "social")))
        if answer is not None:
            record.ok("friend-request", (user, partner_id, answer.json()), sent)
            break
    n = 0
    meet = None   # the meet this client sends, with its last acknowledged status
    while not stop.is_set():
        n += 1
        # A grid row pushed by its id: a retry of the same row cannot apply twice.
        board = str(uuid.uuid5(uuid.NAMESPACE_URL, f"{user}/{n}"))
        row = {"id": board, "grid_id": CONFIG["starter_grid"], "audience": "private", "created_at": "2026-01-01T00:00:00Z",
               "updated_at": "2026-01-01T00:00:00Z", "device_id": str(uuid.uuid4())}
        answer, sent = await write(http, record, "sync-push", lambda: http.post(
            f"{url}/rest/v1/rpc/sync_push", json={"p_table": "user_grids", "p_rows": [row]}, headers=headers(token, "grids")),
            accept=lambda a: a.json()[0]["outcome"] in ("applied", "ignored"))
        if answer is not None:
            record.ok("sync-push", board, sent)
        answer, sent = await write(http, record, "position", lambda: http.post(
            f"{url}/rest/v1/rpc/broadcast_position", headers=headers(token, "meet"),
            json={"p_resort_id": "ha-resort", "p_lat": 46.0 + n * 1e-5, "p_lon": 7.0, "p_captured_at": stamp()}))
        if answer is not None:
            record.ok("position", user, sent)
        if n % 5 == 0:
            await stranger(http, record, stop, url, token, user)
        if number % 2 == 0:
            meet = await meet_step(http, record, meet, (token, user, url), (partner_token, partner_id, partner_url))
        await read(http, record, url, token, partner_id)
        await asyncio.sleep(0.05)


async def stranger(http, record, stop, url, token, user):
    """A new person, and a friend request to them: a request row that must be kept."""
    _, stranger_id = await sign_up(http, record, url, "hastranger", stop)
    while stranger_id and not stop.is_set():
        answer, sent = await write(http, record, "friend-request", lambda: http.post(
            f"{url}/rest/v1/rpc/send_friend_request", json={"p_user_id": stranger_id}, headers=headers(token, "social")))
        if answer is not None:
            record.ok("friend-request", (user, stranger_id, answer.json()), sent)
            return


async def meet_step(http, record, meet, sender, receiver):
    """One step of a meet through PowderMeet's face: send it, the friend accepts, the sender
    ends it. After a failed step the meet is read back, as an app does, and goes on from
    where it stands."""
    (token, user, url), (friend_token, friend_id, friend_url) = sender, receiver
    face = lambda who: headers(who, key=POWDERMEET_KEY)
    if meet is None:
        body = {"sender_id": user, "receiver_id": friend_id, "resort_id": "ha-resort", "meeting_node_id": "n-summit",
                "meeting_node_display_name": "Summit", "sender_eta_seconds": 300.0, "receiver_eta_seconds": 280.0,
                "status": "pending"}
        answer, sent = await write(http, record, "meet", lambda: http.post(
            f"{url}/rest/v1/meet_requests?select=id,status", json=body,
            headers={**face(token), "Prefer": "return=representation", "Accept": "application/vnd.pgrst.object+json"}))
        if answer is None:
            return None
        made = answer.json()
        record.ok("meet", (made["id"], made["status"]), sent)
        return made
    step = {"pending": (friend_url, friend_token, "accepted"), "accepted": (url, token, "expired")}.get(meet["status"])
    if step is None:
        return None   # ended: the next step sends a new one
    where, who, status = step
    answer, sent = await write(http, record, "meet", lambda: http.patch(
        f"{where}/rest/v1/meet_requests?id=eq.{meet['id']}&select=id,status", json={"status": status},
        headers={**face(who), "Prefer": "return=representation"}))
    if answer is not None and answer.json():
        record.ok("meet", (meet["id"], status), sent)
        return {"id": meet["id"], "status": status}
    try:
        again = await http.get(f"{url}/rest/v1/meet_requests?id=eq.{meet['id']}&select=id,status", headers=face(token))
        rows = again.json() if again.status_code == 200 else []
        return rows[0] if rows else meet
    except httpx.HTTPError:
        return meet


async def read(http, record, url, token, partner_id):
    """Reads a standby may answer: the Atlas and the partner's profile. A client who writes
    reads them from the primary."""
    for call in (lambda: http.post(f"{url}/rest/v1/rpc/atlas_search", json={"p_limit": 5}, headers=headers(token, "grids")),
                 lambda: http.post(f"{url}/rest/v1/rpc/profile_view", json={"p_user_id": partner_id}, headers=headers(token, "grids"))):
        record.reads["client"] += 1
        try:
            answer = await call()
        except httpx.HTTPError as error:
            record.read_failures["client"].append((time.monotonic(), type(error).__name__))
            continue
        if answer.status_code != 200:
            record.read_failures["client"].append((time.monotonic(), describe(answer)))


async def reader(record, stop, url):
    """Someone who only reads the Atlas and their profile, through the platform's own client
    library (supabase-py): once their session is a few seconds old the read pool answers
    them, on a standby."""
    app = await acreate_client(url, KEY, options=AsyncClientOptions(auto_refresh_token=False))
    name = f"hareader{uuid.uuid4().hex[:6]}"
    signed = await app.auth.sign_up({"email": f"{name}@example.test", "password": "correct horse battery",
                                     "options": {"data": {"username": name}}})
    grids = app.schema("grids")
    while not stop.is_set():
        for call in (grids.rpc("atlas_search", {"p_limit": 5}), grids.rpc("profile_view", {"p_user_id": signed.user.id})):
            record.reads["reader"] += 1
            try:
                await call.execute()
            except (postgrest.APIError, httpx.HTTPError) as error:
                record.read_failures["reader"].append((time.monotonic(), str(error)[:80]))
        await asyncio.sleep(0.1)


async def watcher(http, stop, events, watch_url, post_url):
    """A friend of a poster (who posts on the other gateway), following positions at the
    resort through realtime: what it hears is recorded as (time, 'gap' | 'position')."""
    people = []
    for name, url in (("hawatch", watch_url), ("hapost", post_url)):
        email = f"{name}-{uuid.uuid4().hex[:8]}@example.test"
        body = (await http.post(f"{url}/auth/v1/signup", json={"email": email, "password": "correct horse battery",
                                                               "data": {"username": f"{name}{uuid.uuid4().hex[:6]}"}},
                                headers={"apikey": KEY})).json()
        people.append((body["access_token"], body["user"]["id"]))
    (watch_token, watch_id), (post_token, post_id) = people
    for token, other in ((watch_token, post_id), (post_token, watch_id)):
        await http.post(f"{watch_url}/rest/v1/rpc/send_friend_request", json={"p_user_id": other}, headers=headers(token, "social"))
    socket_url = watch_url.replace("http", "ws", 1) + f"/realtime/v1/websocket?apikey={KEY}&vsn=1.0.0"

    async def post():
        n = 0
        while not stop.is_set():
            n += 1
            try:
                answer = await http.post(f"{post_url}/rest/v1/rpc/broadcast_position", headers=headers(post_token, "meet"),
                                json={"p_resort_id": "ha-resort", "p_lat": 46.0 + n * 1e-5, "p_lon": 7.0, "p_captured_at": stamp()})
                events.append((time.monotonic(), f"posted {answer.status_code} {answer.text[:60]}"))
            except httpx.HTTPError as e:
                events.append((time.monotonic(), f"post failed {type(e).__name__}"))
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
            if message.get("event") not in ("broadcast",):
                events.append((time.monotonic(), "message " + json.dumps(message)[:200]))
            if message.get("event") == "system" and payload.get("extension") == "relay":
                events.append((time.monotonic(), "gap"))
            elif message.get("event") == "broadcast" and payload.get("payload", {}).get("u", "").lower() == post_id.lower():
                events.append((time.monotonic(), "position"))
    await poster


def psql(sql, conninfo=None):
    return subprocess.run(["psql", conninfo or CONFIG["conninfo"], "-XAtc", sql], capture_output=True, text=True, check=True).stdout.strip()


def read_pool_on_standbys():
    """Connections of the gateways' read pools open on nodes in recovery (standbys)."""
    count = 0
    for node in CONFIG["nodes"]:
        try:
            answer = psql("select pg_is_in_recovery(), count(*) from pg_stat_activity where application_name = 'summit-gateway-read'",
                          node + " connect_timeout=2")
        except subprocess.CalledProcessError:
            continue   # the node killed
        standby, connections = answer.split("|")
        if standby == "t":
            count += int(connections)
    return count


def relay_resumed(events, killed_at):
    """(time of the gap signal after the kill, whether positions came again a second after it)."""
    gap = next((t for t, kind in events if kind == "gap" and t > killed_at), None)
    return gap, any(kind == "position" and t > (gap or killed_at) + 1 for t, kind in events)


async def round_with(kill, name):
    record, stop, heard = Record(), asyncio.Event(), [[], []]
    people = {}
    async with httpx.AsyncClient(timeout=10) as http:
        tasks = [asyncio.create_task(client(http, record, stop, i, people)) for i in range(CLIENTS)]
        tasks.append(asyncio.create_task(watcher(http, stop, heard[0], GATEWAYS[0], GATEWAYS[1])))
        tasks.append(asyncio.create_task(watcher(http, stop, heard[1], GATEWAYS[1], GATEWAYS[0])))
        tasks += [asyncio.create_task(reader(record, stop, url)) for url in GATEWAYS]
        # Long enough for the readers' sessions to be older than the read-your-writes window.
        await asyncio.sleep(7)
        on_standbys = read_pool_on_standbys()
        before = len(record.acknowledged)
        killed_at = time.monotonic()
        killed = subprocess.run(kill, shell=True, capture_output=True, text=True)
        print(killed.stdout.strip(), flush=True)
        # Keep the load on until writes sent after the kill have flowed for a while and every
        # realtime subscriber hears positions again (or give up after 60 s).
        while killed.returncode == 0 and time.monotonic() - killed_at < 60:
            await asyncio.sleep(0.5)
            after = [answered for sent, answered in record.successes if sent > killed_at]
            heard_again = all(relay_resumed(events, killed_at)[1] for events in heard)
            if len(after) > 20 and after[-1] - after[0] > 3 and heard_again:
                break
        on_standbys_after = read_pool_on_standbys()
        stop.set()
        await asyncio.gather(*tasks)
    if killed.returncode != 0:
        sys.exit(f"{name}: the kill failed: {killed.stderr.strip()[-300:]}")
    # The first write sent after the kill that was acknowledged (requests in flight at the kill do not count).
    first = min((answered for sent, answered in record.successes if sent > killed_at), default=None)
    during = [f for f in record.failures if f[0] > killed_at and (first is None or f[0] <= first)]

    def tally(failures):
        answers = {}
        for _, kind, answer in failures:
            key = f"{kind}: {answer.split(' {')[0][:60]}"
            answers[key] = answers.get(key, 0) + 1
        return json.dumps(answers)
    before_kill = [f for f in record.failures if f[0] <= killed_at]
    kinds = {}
    for kind, _ in record.acknowledged:
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"# {name}: {before} writes acknowledged before the kill, {len(record.acknowledged)} in all {json.dumps(kinds)}", flush=True)
    print(f"# {name}: seconds from the kill to the first successful write: "
          + (f"{first - killed_at:.1f}" if first else "never"), flush=True)
    print(f"# {name}: requests failed during the switch: {len(during)} " + tally(during), flush=True)
    print(f"# {name}: requests failed before the kill: {len(before_kill)} " + tally(before_kill), flush=True)
    print(f"# {name}: reads by writing clients {record.reads['client']}, failed {len(record.read_failures['client'])}; "
          f"by readers {record.reads['reader']}, failed {len(record.read_failures['reader'])} "
          f"{tally([(t, 'read', a) for t, a in record.read_failures['reader']])}; read-pool connections on standbys "
          f"before the kill {on_standbys}, at the end {on_standbys_after}", flush=True)
    record.resumed = first is not None
    record.relay_ok = True
    for events, label in zip(heard, ("multi-host gateway", "HAProxy gateway")):
        gap, again = relay_resumed(events, killed_at)
        print(f"# {name}: the relay subscriber on the {label} got the gap signal: {'yes' if gap else 'no'}; friends' positions "
              + ("after it" if gap else "after the kill") + f": {'yes' if again else 'no'}", flush=True)
        record.relay_ok = record.relay_ok and gap is not None and again
        if not again:
            # What this subscriber saw and its poster got, around the kill.
            last = None
            for t, kind in events:
                if kind != last:
                    print(f"#   {t - killed_at:+.1f} s {kind}", flush=True)
                last = kind
    record.on_standbys = on_standbys + on_standbys_after
    return record


def lost_writes(record):
    """Acknowledged writes the primary does not hold, by kind."""
    lost = {}
    emails = [k for kind, k in record.acknowledged if kind == "sign-up"]
    if emails:
        found = int(psql("select count(*) from auth.users where email in (" + ",".join(f"'{e}'" for e in emails) + ")"))
        lost["sign-up"] = len(emails) - found
    boards = {k for kind, k in record.acknowledged if kind == "sync-push"}
    if boards:
        found = int(psql("select count(*) from grids.user_grids where id in (" + ",".join(f"'{b}'" for b in boards) + ")"))
        lost["sync-push"] = len(boards) - found
    # 'sent': the request is there (or they became friends since); 'friends': the friendship is.
    requests = [k for kind, k in record.acknowledged if kind == "friend-request"]
    if requests:
        pairs = ",".join(f"('{sender}'::uuid, '{receiver}'::uuid, {'true' if outcome == 'sent' else 'false'})"
                         for sender, receiver, outcome in requests)
        lost["friend-request"] = int(psql(f"""
            select count(*) from (values {pairs}) r(sender, receiver, sent)
            where not exists (select 1 from social.friendships f where f.user_a = least(r.sender, r.receiver)
                                and f.user_b = greatest(r.sender, r.receiver))
              and not (r.sent and exists (select 1 from social.friend_requests q where q.from_id = r.sender and q.to_id = r.receiver))"""))
    # A meet's status is at least as far along as the last step acknowledged.
    steps = {}
    for kind, key in record.acknowledged:
        if kind == "meet":
            meet_id, status = key
            steps[meet_id] = max(steps.get(meet_id, 0), MEET_RANK[status])
    if steps:
        stored = dict(line.split("|") for line in psql(
            "select id, status from meet.meet_requests where id in (" + ",".join(f"'{m}'" for m in steps) + ")").splitlines())
        lost["meet"] = sum(1 for m, rank in steps.items() if m not in stored or MEET_RANK.get(stored[m], -1) < rank)
    return lost


def overlapping_job_runs():
    """Runs of one job by different workers whose times overlap: the lease must rule them out."""
    rows = psql("""select a.job, a.worker, b.worker from summit.job_run_history a join summit.job_run_history b
                   on a.job = b.job and a.id < b.id and a.finished_at is not null and b.finished_at is not null
                   and a.started_at < b.finished_at and b.started_at < a.finished_at""")
    runs = psql("""select count(*), count(distinct worker), count(*) filter (where outcome = 'abandoned')
                   from summit.job_run_history""").split("|")
    return [line for line in rows.splitlines() if line], runs


async def main():
    records = [await round_with(CONFIG["kill_primary"], "primary killed"),
               await round_with(CONFIG["kill_standby"], "synchronous standby killed")]
    # The primary's death drops every database connection: the relay must say so and recover.
    relay_ok = records[0].relay_ok
    lost = {}
    for record in records:
        for kind, count in lost_writes(record).items():
            lost[kind] = lost.get(kind, 0) + count
    duplicates = int(psql("select count(*) - count(distinct id) from grids.user_grids"))
    overlaps, (runs, workers, abandoned) = overlapping_job_runs()
    reads_ok = all(r.reads["reader"] > 0 for r in records) and any(r.on_standbys > 0 for r in records)
    print(f"# writes checked by kind, lost: {json.dumps(lost)}", flush=True)
    print(f"# scheduled job runs: {runs} by {workers} workers, {abandoned} cut short by the failover; overlapping runs: {len(overlaps)}",
          flush=True)
    for overlap in overlaps[:5]:
        print(f"#   overlap: {overlap}", flush=True)
    print(f"acknowledged writes lost: {sum(lost.values())}", flush=True)
    print(f"duplicates applied: {duplicates}", flush=True)
    print(f"jobs run twice at once: {len(overlaps)}", flush=True)
    ok = (sum(lost.values()) == 0 and duplicates == 0 and not overlaps and relay_ok and reads_ok
          and all(r.resumed for r in records))
    if not reads_ok:
        print("# the read pools were never used on a standby, or nothing was read", flush=True)
    sys.exit(0 if ok else 1)


asyncio.run(main())
