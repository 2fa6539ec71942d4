"""Sign-up when addresses must be confirmed, and with sign-ups closed, through the
hosted platform's own Python client (supabase_auth inside `supabase`):

- on the confirming server (SUMMIT_AUTH_AUTOCONFIRM=off) sign_up answers the
  user and no session, mails a confirmation, and the account cannot sign in
  until its code comes back; signing up a confirmed address again answers a
  user that exists nowhere and mails nothing; resend sends the confirmation again;
- on the closed server (SUMMIT_AUTH_SIGN_UPS=off) sign-up, anonymous sign-in and
  codes to unknown addresses are refused with signup_disabled, while existing
  accounts sign in as before.

All servers share one database; mail reaches the SMTP stand-in (support.py).
"""

import asyncio
import uuid

from supabase_auth.errors import AuthApiError

from support import CONFIG, check, client, fail, finish, mail_to, mails_to, sign_up

PASSWORD = "correct horse battery"


async def refused(call, code, name):
    try:
        result = await call
    except AuthApiError as error:
        check(error.code == code, name, f"expected {code}, got {error.code} ({error.status}): {error.message}")
        return error
    fail(name, f"expected the refusal {code}, got {result!r}")


async def main():
    confirming, closed, a = CONFIG["confirming"], CONFIG["closed"], CONFIG["a"]
    name = uuid.uuid4().hex[:6]

    # --- addresses confirmed by mail ---------------------------------------------------------------------
    address = f"cfay{name}@example.test"
    fay = await client(confirming)
    signed = await fay.auth.sign_up({"email": address, "password": PASSWORD, "options": {"data": {"username": f"cfay{name}"}}})
    check(signed.session is None and signed.user and signed.user.email == address and signed.user.email_confirmed_at is None,
          "sign_up answers the user, unconfirmed, and no session", str(signed))
    code, link, mail = await mail_to(address, 0, "a confirmation")
    check(code and link and mail["subject"] == "Confirm your email address", "and mails a confirmation with a code and a link")
    await refused((await client(confirming)).auth.sign_in_with_password({"email": address, "password": PASSWORD}),
                  "email_not_confirmed", "the unconfirmed account cannot sign in")
    await asyncio.sleep(1.1)  # the mail interval of the suite's servers
    await fay.auth.resend({"type": "signup", "email": address})
    resent, _, _ = await mail_to(address, 1, "the confirmation again")
    await refused(fay.auth.verify_otp({"email": address, "token": code, "type": "signup"}), "otp_expired",
                  "the resent code supersedes the first")
    verified = await fay.auth.verify_otp({"email": address, "token": resent, "type": "signup"})
    check(verified.session and verified.user.email_confirmed_at, "verify_otp with the code confirms and signs in")
    back = await (await client(confirming)).auth.sign_in_with_password({"email": address, "password": PASSWORD})
    check(back.user.id == signed.user.id, "then the password signs in")

    seen = len(mails_to(address))
    again = await (await client(confirming)).auth.sign_up({"email": address, "password": "another password"})
    check(again.session is None and again.user and again.user.id != signed.user.id and again.user.identities == [],
          "signing up a confirmed address again answers a user that exists nowhere", str(again.user))
    await asyncio.sleep(0.5)
    check(len(mails_to(address)) == seen, "and mails nothing")
    still = await (await client(a)).auth.sign_in_with_password({"email": address, "password": PASSWORD})
    check(still.user.id == signed.user.id, "and the account's password is unchanged")

    # --- sign-ups closed ---------------------------------------------------------------------------------
    existing, existing_id = await sign_up(a, f"cgus{name}")
    shut = await client(closed)
    await refused(shut.auth.sign_up({"email": f"cnew{name}@example.test", "password": PASSWORD}), "signup_disabled",
                  "sign_up is refused when sign-ups are closed")
    await refused(shut.auth.sign_in_anonymously(), "signup_disabled", "so is an anonymous sign-in")
    await refused(shut.auth.sign_in_with_otp({"email": f"cnew{name}@example.test"}), "otp_disabled",
                  "and a code to an unknown address")
    kept = await shut.auth.sign_in_with_password({"email": f"cgus{name}@example.test", "password": PASSWORD})
    check(kept.user.id == existing_id, "an existing account signs in as before")
    finish()


asyncio.run(main())
