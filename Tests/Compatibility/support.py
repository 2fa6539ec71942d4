"""What every compatibility suite file shares: the configuration, TAP output, clients and waiting.

Each `compat*.py` beside this file is run as `python FILE CONFIG.json` by
GatewayTests' CompatibilitySuiteTests. CONFIG.json names the servers and keys:
{"a": URL, "b": URL, "anon": KEY, "service": KEY, "secret": the JWT secret,
"powdermeet_anon": PowderMeet's anon key, "graph_resort": a published resort with a status sidecar,
"tls": URL or null,
"confirming": URL (addresses confirmed by mail), "closed": URL (no sign-ups),
"mailbox": the SMTP stand-in's JSON lines, "previous_key": the PEM of the key
the signing key replaced, "apple_key" and "google_key": PEMs to sign ID tokens}.
All of them serve one database. A file
prints one TAP line per step; the first failing step ends the run with exit
status 1 and says why.
"""

import asyncio
import base64
import datetime
import hashlib
import json
import re
import sys
import time

import jwt
from cryptography.hazmat.primitives import serialization
from supabase import AsyncClientOptions, acreate_client

CONFIG = json.load(open(sys.argv[1]))
STEP = 0
WAIT = 20  # seconds any expected event may take (CI machines are busy)


def ok(name):
    global STEP
    STEP += 1
    print(f"ok {STEP} - {name}", flush=True)


def fail(name, why):
    print(f"not ok {STEP + 1} - {name}\n# {why}", flush=True)
    sys.exit(1)


def finish():
    """The TAP plan, once every step has passed."""
    print(f"1..{STEP}", flush=True)


def check(condition, name, why=""):
    if not condition:
        fail(name, why or "the condition did not hold")
    ok(name)


async def client(url):
    return await acreate_client(url, CONFIG["anon"], options=AsyncClientOptions(auto_refresh_token=False))


async def sign_up(url, name):
    c = await client(url)
    response = await c.auth.sign_up({
        "email": f"{name}@example.test",
        "password": "correct horse battery",
        "options": {"data": {"username": name}},
    })
    if response.session is None or response.user is None:
        fail(f"sign up {name}", f"no session in {response}")
    await asyncio.sleep(0.05)  # let the client hand the new token to its realtime socket
    return c, response.user.id


class Inbox:
    """Events a callback received, with waiting."""

    def __init__(self):
        self.items = []
        self.changed = asyncio.Event()

    def __call__(self, *args):
        self.items.append(args[0] if len(args) == 1 else args)
        self.changed.set()

    async def wait_for(self, predicate, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while not any(predicate(item) for item in self.items):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                fail(what, f"nothing matching arrived within {timeout}s; got {self.items[-5:]}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass
        return next(item for item in self.items if predicate(item))


async def subscribed(channel, what):
    states = []
    await channel.subscribe(lambda state, error: states.append((state, error)))
    if not states or states[-1][0].value != "SUBSCRIBED":
        fail(what, f"the channel did not subscribe: {states}")
    return channel


async def service_client(url):
    """A client with the service role key: the backend's, for what only it may do (buckets)."""
    return await acreate_client(url, CONFIG["service"], options=AsyncClientOptions(auto_refresh_token=False))


async def refused(call, status, name):
    """Awaits `call`, which must raise the storage client's StorageApiError with `status`; returns the error."""
    from storage3.exceptions import StorageApiError

    try:
        result = await call
    except StorageApiError as error:
        check(str(error.status) == str(status), name, f"expected {status}, got {error.status}: {error.message}")
        return error
    fail(name, f"expected a refusal with {status}, got {result!r}")


def mails_to(address):
    try:
        lines = open(CONFIG["mailbox"]).read().splitlines()
    except FileNotFoundError:
        return []
    return [mail for mail in map(json.loads, lines) if mail["to"] == address]


async def mail_to(address, seen, what):
    """The next mail to `address` after the `seen` first ones: (code, link, mail)."""
    deadline = time.monotonic() + 20
    while len(mails_to(address)) <= seen:
        if time.monotonic() > deadline:
            fail(what, f"no mail reached {address} within 20 s")
        await asyncio.sleep(0.1)
    mail = mails_to(address)[seen]
    code = re.search(r"code: ([0-9]{6})", mail["body"])
    link = re.search(r"(https?://\S+/auth/v1/verify\?\S+)", mail["body"])
    return (code.group(1) if code else None), (link.group(1) if link else None), mail


# Sign in with Apple and Google: ID tokens signed with the suite's own provider keys.

def private_key(path):
    return open(path).read()


def thumbprint(key_path):
    """The RFC 7638 thumbprint of an RSA key: the kid the key set names it by."""
    public = serialization.load_pem_private_key(open(key_path, "rb").read(), password=None).public_key()
    members = jwt.algorithms.RSAAlgorithm.to_jwk(public, as_dict=True)
    canonical = json.dumps({"e": members["e"], "kty": "RSA", "n": members["n"]}, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(canonical.encode()).digest()).rstrip(b"=").decode()


def provider_token(key_path, issuer, audience, subject, nonce=None, email=None, verified=True, **claims):
    now = int(time.time())
    body = {"iss": issuer, "aud": audience, "sub": subject, "iat": now, "exp": now + 600, **claims}
    if nonce is not None:
        body["nonce"] = hashlib.sha256(nonce.encode()).hexdigest()
    if email is not None:
        body["email"], body["email_verified"] = email, verified
    return jwt.encode(body, private_key(key_path), algorithm="RS256", headers={"kid": thumbprint(key_path)})


# AirStrive through its face, as the app calls it (compat_airstrive.py, admin_site.py).

def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat()


async def airstrive_person(url, name):
    """A new AirStrive account signed up with the app's key: (client, user id, session)."""
    c = await acreate_client(url, CONFIG["airstrive_anon"], options=AsyncClientOptions(auto_refresh_token=False))
    response = await c.auth.sign_up({"email": f"{name}@example.test", "password": "correct horse battery",
                                     "options": {"data": {"username": name}}})
    if response.session is None:
        fail(f"sign up {name}", str(response))
    return c, response.user.id, response.session


async def sync_push(c, table, row, device):
    """One row pushed as a phone pushes it; the row as sent."""
    row = {"created_at": now(), "updated_at": now(), "device_id": device, **row}
    answer = (await c.rpc("sync_push", {"p_table": table, "p_rows": [row]}).execute()).data
    if not answer or answer[0].get("outcome") != "applied":
        fail(f"push {table}", str(answer))
    return row
