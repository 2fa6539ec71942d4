"""A swarm of realtime clients for `summit bench gateway`.

    python gateway-swarm.py run CONFIG.json

CONFIG.json: {"url": "ws://host:port/realtime/v1/websocket", "anon": KEY,
"topic": "realtime:pos:resort:vail", "publisher": TOKEN, "clients": [TOKEN, ...],
"rounds": N, "interval": SECONDS, "workers": N}.

Opens one WebSocket per client token (spread over worker processes, so the
clients use every core), joins the position channel as that user, and waits until
each is live. Then the publisher sends one position per round on the same channel
with its capture time ("at") set to the moment it is sent; every client records
how long each position took to arrive. Prints one JSON object: clients, rounds,
delivered, expected, and the latencies' p50, p90, p99 and max in milliseconds.
"""

import asyncio
import json
import os
import subprocess
import sys
import time

import websockets


def join_message(topic, token, ref):
    return json.dumps({
        "topic": topic, "event": "phx_join", "ref": str(ref), "join_ref": str(ref),
        "payload": {"config": {"broadcast": {"self": False}, "presence": {"key": ""}, "private": False},
                    "access_token": token},
    })


async def connect(url, attempts=5):
    for attempt in range(attempts):
        try:
            return await websockets.connect(url, compression=None, ping_interval=None, max_queue=None,
                                            open_timeout=60, close_timeout=2)
        except (OSError, asyncio.TimeoutError, websockets.exceptions.InvalidHandshake):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.2 * (attempt + 1))


async def client(config, token, latencies, ready):
    ws = await connect(config["url"])
    await ws.send(join_message(config["topic"], token, 1))
    live = False
    seen = 0
    async for raw in ws:
        message = json.loads(raw)
        event = message.get("event")
        if event == "phx_reply" and message["payload"].get("status") != "ok":
            raise RuntimeError(f"join refused: {message['payload']}")
        if event == "broadcast":
            body = message["payload"]
            if body.get("event") == "friends" and not live:
                live = True
                ready()
            elif body.get("event") == "position" and body["payload"].get("source") == "live":
                latencies.append((time.time() - body["payload"]["at"]) * 1000)
                seen += 1
                if seen >= config["rounds"]:
                    break
    return ws


async def heartbeat(sockets):
    while True:
        await asyncio.sleep(20)
        for ws in list(sockets):
            try:
                await ws.send(json.dumps({"topic": "phoenix", "event": "heartbeat", "payload": {}, "ref": "hb"}))
            except websockets.exceptions.ConnectionClosed:
                pass


async def worker(config, start, end):
    """Clients start..end: print "ready" once all are live, then "done" with the latencies."""
    tokens = config["clients"][start:end]
    latencies, sockets = [], []
    live = 0
    all_live = asyncio.Event()

    def ready():
        nonlocal live
        live += 1
        if live == len(tokens):
            all_live.set()

    async def one(token):
        ws = await client(config, token, latencies, ready)
        sockets.append(ws)

    beats = asyncio.create_task(heartbeat(sockets))
    tasks = []
    for index, token in enumerate(tokens):
        tasks.append(asyncio.create_task(one(token)))
        if index % 100 == 99:
            await asyncio.sleep(0.05)  # open gradually: a burst of handshakes is not what is measured
    waiter = asyncio.create_task(all_live.wait())
    while not all_live.is_set():
        done, _ = await asyncio.wait([*tasks, waiter], timeout=600, return_when=asyncio.FIRST_COMPLETED)
        if not done:
            print(json.dumps({"error": f"only {live} of {len(tokens)} clients went live in 600 s"}), flush=True)
            os._exit(1)
        for task in done:
            if task is not waiter and task.exception():
                print(json.dumps({"error": repr(task.exception())}), flush=True)
                os._exit(1)
    print("ready", flush=True)
    deadline = config["rounds"] * config["interval"] + 30
    done, pending = await asyncio.wait(tasks, timeout=deadline)
    for task in done:
        if task.exception():
            print(json.dumps({"error": str(task.exception())}), flush=True)
            return
    beats.cancel()
    print(json.dumps({"latencies": latencies, "unfinished": len(pending)}), flush=True)
    os._exit(0)


async def run(config_path):
    config = json.load(open(config_path))
    count, workers = len(config["clients"]), max(1, config.get("workers", 2))
    share = (count + workers - 1) // workers
    processes = [subprocess.Popen([sys.executable, __file__, "worker", config_path, str(i * share), str(min(count, (i + 1) * share))],
                                  stdout=subprocess.PIPE, text=True) for i in range(workers)]
    started = time.monotonic()
    loop = asyncio.get_running_loop()
    for process in processes:
        line = await loop.run_in_executor(None, process.stdout.readline)
        if line.strip() != "ready":
            raise SystemExit(f"a worker did not get its clients live: {line.strip() or process.wait()}")
    joined = time.monotonic() - started
    await asyncio.sleep(2)  # every relay subscription past hydration
    publisher = await connect(config["url"])
    await publisher.send(join_message(config["topic"], config["publisher"], 1))
    for round_ in range(config["rounds"]):
        await asyncio.sleep(config["interval"])
        await publisher.send(json.dumps({
            "topic": config["topic"], "event": "broadcast", "ref": str(round_ + 2), "join_ref": "1",
            "payload": {"type": "broadcast", "event": "position",
                        "payload": {"lat": 39.6403 + round_ * 1e-5, "lon": -106.3742, "acc": 5, "at": time.time()}},
        }))
    latencies, unfinished = [], 0
    for process in processes:
        result = json.loads(await loop.run_in_executor(None, process.stdout.readline))
        if "error" in result:
            raise SystemExit(f"a client failed: {result['error']}")
        latencies += result["latencies"]
        unfinished += result["unfinished"]
        process.wait()
    await publisher.close()
    latencies.sort()

    def percentile(fraction):
        return latencies[min(len(latencies) - 1, int(fraction * len(latencies)))] if latencies else float("nan")

    print(json.dumps({
        "clients": count, "rounds": config["rounds"], "delivered": len(latencies), "expected": count * config["rounds"],
        "unfinished": unfinished, "join_seconds": joined,
        "p50_ms": percentile(0.50), "p90_ms": percentile(0.90), "p99_ms": percentile(0.99),
        "max_ms": latencies[-1] if latencies else float("nan"),
    }))


if __name__ == "__main__":
    if sys.argv[1] == "worker":
        asyncio.run(worker(json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])))
    else:
        asyncio.run(run(sys.argv[2]))
