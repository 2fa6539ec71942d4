"""A local SMTP server for the compatibility suite: aiosmtpd from PyPI, taking
every message and appending it, one JSON object per line ({"from", "to",
"subject", "body"}), to the mailbox file. Prints "listening PORT" once it
accepts connections.

    python smtp_standin.py MAILBOX.jsonl
"""
import asyncio
import email
import email.policy
import json
import sys

from aiosmtpd.smtp import SMTP


class Mailbox:
    def __init__(self, path):
        self.file = open(path, "a", buffering=1)

    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        for recipient in envelope.rcpt_tos:
            self.file.write(json.dumps({"from": envelope.mail_from, "to": recipient, "subject": str(message["subject"]),
                                        "body": message.get_content()}) + "\n")
        return "250 OK"


async def main():
    handler = Mailbox(sys.argv[1])
    server = await asyncio.get_running_loop().create_server(lambda: SMTP(handler, hostname="standin"), "127.0.0.1", 0)
    print("listening %d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
