"""get-resort-3d-pack as the apps call it: the newest USDZ pack of a resort as a
signed storage URL and its SHA-256, fetched without a key; 404 where there is none.

Run by GatewayTests' CompatibilitySuiteTests after `summit resort pack add` stored
a pack for the test resort; support.py says what CONFIG.json holds.
"""

import asyncio
import hashlib

import httpx

from support import CONFIG, check, finish


async def main():
    a, key = CONFIG["a"], CONFIG["powdermeet_anon"]
    expected = open(CONFIG["graph_resort_pack"], "rb").read()
    async with httpx.AsyncClient() as http:
        headers = {"apikey": key, "Authorization": f"Bearer {key}"}
        answer = await http.post(f"{a}/functions/v1/get-resort-3d-pack", json={"resort_id": CONFIG["graph_resort"]}, headers=headers)
        body = answer.json() if answer.status_code == 200 else {}
        check(body.get("sha256") == hashlib.sha256(expected).hexdigest() and body.get("byte_count") == len(expected)
              and body.get("url", "").startswith(a) and body.get("expires_in") == 3600,
              "get-resort-3d-pack answers the newest pack's signed URL and SHA-256", f"{answer.status_code} {answer.text[:300]}")
        pack = await http.get(body["url"])
        check(pack.status_code == 200 and pack.content == expected and hashlib.sha256(pack.content).hexdigest() == body["sha256"],
              "the URL serves the pack without a key, and it hashes to sha256", f"{pack.status_code} {pack.text[:200]}")
        unsigned = await http.get(body["url"].split("?")[0])
        check(unsigned.status_code >= 400, "without its token the URL opens nothing", str(unsigned.status_code))
        none = await http.post(f"{a}/functions/v1/get-resort-3d-pack", json={"resort_id": "no-such-resort"}, headers=headers)
        check(none.status_code == 404 and "summit resort pack add" in none.text, "a resort without a pack is a 404 that says what to do",
              f"{none.status_code} {none.text[:200]}")
    finish()


asyncio.run(main())
