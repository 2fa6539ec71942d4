"""A local stand-in for Apple's push service, for Summit's push tests.

HTTP/2 through the `h2` library, answering POST /3/device/{token} as APNs does:
over TLS with ALPN h2 when given a certificate, else over cleartext h2c, entered
either with prior knowledge (the connection preface first) or through an
HTTP/1.1 `Upgrade: h2c` request, whose request becomes stream 1 (RFC 7540 §3.2;
libcurl's h2c takes this way). A plain HTTP/1.1 request is answered 505. It checks
every request's provider token — an ES256 JWT whose header names the key id and
whose claims name the team — against the public key with `cryptography`, and
appends what it answered, one JSON object per line, to the log file, and each
request as it arrives (before any delay) to the log file's name + ".arrivals",
so a test can order what it sends after what the server already holds.

How it answers depends on the device token, so a test picks the behaviour:
tokens starting with "dead" get 410 Unregistered, "5000" get 500, "bad0" get
400 BadDeviceToken, "4290" get 429 TooManyRequests with `retry-after: 120`,
every other token 200; after answering a token starting
with "c105ed" it closes the connection (GOAWAY, as APNs does to idle or old
connections). A request whose JWT does not verify gets 403 InvalidProviderToken.

Each record also says how many requests were open on its connection when it was
answered, itself included (`in_flight`: above 1 only when streams overlap on one
connection), and how many connections the server had accepted by then
(`connections_accepted`), so a test can prove that requests were multiplexed.

    python apns_standin.py --public-key KEY.pem --team-id TEAM --key-id KEY --topic TOPIC --log FILE
           [--cert CERT.pem --key KEY.pem] [--delay-ms MS]

Prints "listening PORT" once it accepts connections.
"""
import argparse
import asyncio
import base64
import itertools
import json
import re
import ssl
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Verifier:
    def __init__(self, public_key, team_id, key_id):
        self.public_key = public_key
        self.team_id = team_id
        self.key_id = key_id
        # Signatures already checked: a client reuses one token for many requests (APNs caches them
        # too), and verifying each again would make this single-threaded server the bottleneck.
        self.verified = {}

    def check(self, authorization):
        """None when the bearer token is valid, else why not."""
        if not authorization.startswith("bearer "):
            return "no bearer token"
        parts = authorization[len("bearer "):].split(".")
        if len(parts) != 3:
            return "not a JWT"
        header, claims = json.loads(b64url(parts[0])), json.loads(b64url(parts[1]))
        if header.get("alg") != "ES256" or header.get("kid") != self.key_id:
            return "header %r" % header
        if claims.get("iss") != self.team_id or abs(time.time() - claims.get("iat", 0)) > 3600:
            return "claims %r" % claims
        token = authorization[len("bearer "):]
        if token not in self.verified:
            self.verified[token] = self.verify_signature(parts)
        return self.verified[token]

    def verify_signature(self, parts):
        raw = b64url(parts[2])
        if len(raw) != 64:
            return "signature of %d bytes" % len(raw)
        signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            self.public_key.verify(signature, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "bad signature"
        return None


PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
# Hop-by-hop headers of an HTTP/1.1 upgrade request, which have no place in HTTP/2.
HOP_BY_HOP = {"connection", "upgrade", "http2-settings", "host", "keep-alive", "transfer-encoding"}


class APNsProtocol(asyncio.Protocol):
    connection_ids = itertools.count(1)

    def __init__(self, server):
        self.server = server
        self.id = next(self.connection_ids)
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False))
        self.streams = {}
        self.open = 0  # requests received and not yet answered
        self.speaking_h2 = False
        self.pending = b""

    def connection_made(self, transport):
        self.transport = transport
        self.server.accepted += 1
        if self.server.tls:  # ALPN chose h2 in the handshake
            self.start_h2()

    def start_h2(self):
        self.speaking_h2 = True
        self.h2.initiate_connection()
        self.transport.write(self.h2.data_to_send())

    def data_received(self, data):
        if not self.speaking_h2:
            self.pending += data
            if not self.enter_h2():
                return
            data, self.pending = self.pending, b""
            if not data:
                return
        self.receive_h2(data)

    def enter_h2(self):
        """Cleartext: True once HTTP/2 is spoken (self.pending then holds its first bytes)."""
        if PREFACE.startswith(self.pending[:len(PREFACE)]) and len(self.pending) < len(PREFACE):
            return False
        if self.pending.startswith(PREFACE):
            self.start_h2()
            return True
        end = self.pending.find(b"\r\n\r\n")
        if end < 0:
            return False
        lines = self.pending[:end].decode("latin-1").split("\r\n")
        method, target = (lines[0].split(" ") + ["", ""])[:2]
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        length = int(fields.get("content-length", "0") or 0)
        if len(self.pending) < end + 4 + length:
            return False
        body = self.pending[end + 4:end + 4 + length]
        self.pending = self.pending[end + 4 + length:]
        if "h2c" not in re.split(r"[ ,]+", fields.get("upgrade", "").lower()) or "http2-settings" not in fields:
            self.server.log({"connection": self.id, "protocol_error": "HTTP/1.1 without Upgrade: h2c"})
            message = b"this stand-in speaks HTTP/2 only: prior knowledge, Upgrade: h2c, or TLS with ALPN h2\n"
            self.transport.write(b"HTTP/1.1 505 HTTP Version Not Supported\r\nconnection: close\r\n"
                                 b"content-length: %d\r\n\r\n%s" % (len(message), message))
            self.transport.close()
            return False
        self.transport.write(b"HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: h2c\r\n\r\n")
        self.speaking_h2 = True
        self.h2.initiate_upgrade_connection(fields["http2-settings"])
        self.transport.write(self.h2.data_to_send())
        headers = {":method": method, ":path": target, ":scheme": "http", ":authority": fields.get("host", "")}
        headers.update((name, value) for name, value in fields.items() if name not in HOP_BY_HOP)
        self.request_complete(1, {"headers": headers, "body": body})
        self.transport.write(self.h2.data_to_send())
        return True

    def request_complete(self, stream_id, request):
        self.open += 1
        path = request["headers"].get(":path", "")
        self.server.arrived({"connection": self.id, "stream": stream_id,
                             "token": path[len("/3/device/"):] if path.startswith("/3/device/") else ""})
        if self.server.delay > 0:  # a far-away server: answer after a round trip
            asyncio.get_running_loop().call_later(self.server.delay, self.respond_later, stream_id, request)
        else:
            self.respond(stream_id, request)

    def receive_h2(self, data):
        if getattr(self, "closing", False):
            return  # after our GOAWAY: what the client sent before reading it is not processed
        try:
            events = self.h2.receive_data(data)
        except Exception as error:  # a protocol error: h2 has queued a GOAWAY
            self.server.log({"connection": self.id, "protocol_error": str(error)})
            self.transport.write(self.h2.data_to_send())
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = {"headers": dict((k.decode() if isinstance(k, bytes) else k,
                                                                  v.decode() if isinstance(v, bytes) else v)
                                                                 for k, v in event.headers), "body": b""}
            elif isinstance(event, h2.events.DataReceived):
                self.streams[event.stream_id]["body"] += event.data
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                self.request_complete(event.stream_id, self.streams.pop(event.stream_id))
        self.transport.write(self.h2.data_to_send())

    def respond_later(self, stream_id, request):
        if self.transport.is_closing():
            return
        if stream_id > getattr(self, "last_stream_id", stream_id):
            # Above our GOAWAY's last stream: not processed, as the GOAWAY told the client,
            # which sends it again on a new connection.
            self.open -= 1
            return
        try:
            self.respond(stream_id, request)
        except h2.exceptions.StreamClosedError:
            pass  # the client gave up on the stream (RST_STREAM) while we waited
        self.transport.write(self.h2.data_to_send())

    def respond(self, stream_id, request):
        headers = request["headers"]
        path = headers.get(":path", "")
        token = path[len("/3/device/"):] if path.startswith("/3/device/") else ""
        problem = self.server.verifier.check(headers.get("authorization", ""))
        if headers.get(":method") != "POST" or not token:
            status, reason = 404, "BadPath"
        elif problem:
            status, reason = 403, "InvalidProviderToken"
        elif headers.get("apns-topic") != self.server.topic:
            status, reason = 400, "DeviceTokenNotForTopic"
        elif token.startswith("dead"):
            status, reason = 410, "Unregistered"
        elif token.startswith("5000"):
            status, reason = 500, "InternalServerError"
        elif token.startswith("bad0"):
            status, reason = 400, "BadDeviceToken"
        elif token.startswith("4290"):
            status, reason = 429, "TooManyRequests"
        else:
            status, reason = 200, None
        try:
            payload = json.loads(request["body"])
        except ValueError:
            payload, status, reason = None, 400, "PayloadEmpty"
        self.server.log({"connection": self.id, "stream": stream_id, "token": token, "status": status,
                         "jwt_problem": problem, "apns_id": headers.get("apns-id"),
                         "topic": headers.get("apns-topic"), "push_type": headers.get("apns-push-type"),
                         "priority": headers.get("apns-priority"), "collapse_id": headers.get("apns-collapse-id"),
                         "expiration": headers.get("apns-expiration"), "payload": payload,
                         "in_flight": self.open, "connections_accepted": self.server.accepted})
        self.open -= 1
        response = [(":status", str(status)), ("apns-id", headers.get("apns-id") or "")]
        if status == 429:
            response.append(("retry-after", "120"))
        if reason is None:
            self.h2.send_headers(stream_id, response, end_stream=True)
        else:
            body = json.dumps({"reason": reason}).encode()
            self.h2.send_headers(stream_id, response + [("content-type", "application/json")])
            self.h2.send_data(stream_id, body, end_stream=True)
        if token.startswith("c105ed"):
            self.h2.close_connection(last_stream_id=stream_id)
            self.transport.write(self.h2.data_to_send())
            self.closing = True
            self.last_stream_id = stream_id
            # Close a moment later, as a server that sent GOAWAY does: closing at once, with
            # the client's last frames still unread, makes the kernel send a reset that can
            # reach the client before the answer it already has on the wire.
            asyncio.get_running_loop().call_later(0.3, self.transport.close)


class Server:
    def __init__(self, arguments):
        with open(arguments.public_key, "rb") as file:
            key = serialization.load_pem_public_key(file.read())
        self.verifier = Verifier(key, arguments.team_id, arguments.key_id)
        self.topic = arguments.topic
        self.log_file = open(arguments.log, "a", buffering=1)
        self.arrivals_file = open(arguments.log + ".arrivals", "a", buffering=1)
        self.delay = arguments.delay_ms / 1000
        self.tls = arguments.cert is not None
        self.accepted = 0

    def log(self, record):
        self.log_file.write(json.dumps(record) + "\n")

    def arrived(self, record):
        self.arrivals_file.write(json.dumps(record) + "\n")


async def main():
    parser = argparse.ArgumentParser(description="A local HTTP/2 stand-in for APNs.")
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay-ms", type=float, default=0, help="answer each request this much later")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    arguments = parser.parse_args()
    server = Server(arguments)
    context = None
    if arguments.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(arguments.cert, arguments.key)
        context.set_alpn_protocols(["h2"])
    listener = await asyncio.get_running_loop().create_server(lambda: APNsProtocol(server), "127.0.0.1",
                                                              arguments.port, ssl=context)
    print("listening %d" % listener.sockets[0].getsockname()[1], flush=True)
    async with listener:
        await listener.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
