"""A local stand-in for Apple's push service, for Summit's push tests.

HTTP/2 through the `h2` library (prior-knowledge h2c, or TLS with ALPN h2 when
given a certificate), answering POST /3/device/{token} as APNs does. It checks
every request's provider token — an ES256 JWT whose header names the key id and
whose claims name the team — against the public key with `cryptography`, and
appends what it received, one JSON object per line, to the log file.

How it answers depends on the device token, so a test picks the behaviour:
tokens starting with "dead" get 410 Unregistered, "5000" get 500, "bad0" get
400 BadDeviceToken, every other token 200; after answering a token starting
with "c105ed" it closes the connection (GOAWAY, as APNs does to idle or old
connections). A request whose JWT does not verify gets 403 InvalidProviderToken.

    python apns_standin.py --public-key KEY.pem --team-id TEAM --key-id KEY --topic TOPIC --log FILE
           [--cert CERT.pem --key KEY.pem] [--delay-ms MS]

Prints "listening PORT" once it accepts connections.
"""
import argparse
import asyncio
import base64
import itertools
import json
import ssl
import time

import h2.config
import h2.connection
import h2.events
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
        raw = b64url(parts[2])
        if len(raw) != 64:
            return "signature of %d bytes" % len(raw)
        signature = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        try:
            self.public_key.verify(signature, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "bad signature"
        return None


class APNsProtocol(asyncio.Protocol):
    connection_ids = itertools.count(1)

    def __init__(self, server):
        self.server = server
        self.id = next(self.connection_ids)
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False))
        self.streams = {}

    def connection_made(self, transport):
        self.transport = transport
        self.h2.initiate_connection()
        self.transport.write(self.h2.data_to_send())

    def data_received(self, data):
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
                request = self.streams.pop(event.stream_id)
                if self.server.delay > 0:  # a far-away server: answer after a round trip
                    asyncio.get_running_loop().call_later(self.server.delay, self.respond_later, event.stream_id, request)
                else:
                    self.respond(event.stream_id, request)
        self.transport.write(self.h2.data_to_send())

    def respond_later(self, stream_id, request):
        if not self.transport.is_closing():
            self.respond(stream_id, request)
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
                         "expiration": headers.get("apns-expiration"), "payload": payload})
        response = [(":status", str(status)), ("apns-id", headers.get("apns-id") or "")]
        if reason is None:
            self.h2.send_headers(stream_id, response, end_stream=True)
        else:
            body = json.dumps({"reason": reason}).encode()
            self.h2.send_headers(stream_id, response + [("content-type", "application/json")])
            self.h2.send_data(stream_id, body, end_stream=True)
        if token.startswith("c105ed"):
            self.h2.close_connection(last_stream_id=stream_id)
            self.transport.write(self.h2.data_to_send())
            self.transport.close()


class Server:
    def __init__(self, arguments):
        with open(arguments.public_key, "rb") as file:
            key = serialization.load_pem_public_key(file.read())
        self.verifier = Verifier(key, arguments.team_id, arguments.key_id)
        self.topic = arguments.topic
        self.log_file = open(arguments.log, "a", buffering=1)
        self.delay = arguments.delay_ms / 1000

    def log(self, record):
        self.log_file.write(json.dumps(record) + "\n")


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
