"""The auth flows beyond passwords through the hosted platform's own Python client
(supabase_auth inside `supabase`): anonymous sign-in, user updates, recovery by
code and by PKCE link, email codes, email change, reauthentication, sessions
that end with sign-out and account deletion, the per-account rate limit, and the
admin API. Mail arrives at the local SMTP server (smtp_standin.py) whose
mailbox CONFIG["mailbox"] names.

Run by GatewayTests' CompatibilitySuiteTests on the same servers as the other
suites, as `python compat_auth.py CONFIG.json`; support.py says what CONFIG.json holds.
"""

import asyncio
import urllib.parse
import uuid

import httpx
import jwt
from supabase import AsyncClientOptions, acreate_client
from supabase_auth.errors import AuthApiError

from support import CONFIG, check, client, fail, finish, mail_to, mails_to, ok, service_client, sign_up

PASSWORD = "correct horse battery"


async def refused(call, code, name):
    try:
        result = await call
    except AuthApiError as error:
        check(error.code == code, name, f"expected {code}, got {error.code} ({error.status}): {error.message}")
        return error
    fail(name, f"expected the refusal {code}, got {result!r}")


async def main():
    a, b = CONFIG["a"], CONFIG["b"]
    name = uuid.uuid4().hex[:6]

    # --- anonymous sign-in (on in this configuration) ---------------------------------
    anon = await client(a)
    session = await anon.auth.sign_in_anonymously()
    check(session.user.is_anonymous and session.session.access_token, "sign_in_anonymously makes an anonymous user",
          str(session.user))

    # --- updates ----------------------------------------------------------------------
    ann, ann_id = await sign_up(a, f"aann{name}")
    ann_email = f"aann{name}@example.test"
    updated = await ann.auth.update_user({"data": {"skill_level": "expert"}})
    check(updated.user.user_metadata.get("skill_level") == "expert" and updated.user.user_metadata.get("username") == f"aann{name}",
          "update_user merges data into user_metadata", str(updated.user.user_metadata))
    await refused(ann.auth.update_user({"password": PASSWORD}), "same_password", "the same password is refused")
    await ann.auth.update_user({"password": "a new battery staple"})
    other = await client(b)
    signed = await other.auth.sign_in_with_password({"email": ann_email, "password": "a new battery staple"})
    check(signed.user.id == ann_id, "the new password signs in on the other server")
    await refused(other.auth.sign_in_with_password({"email": ann_email, "password": PASSWORD}), "invalid_credentials",
                  "the old one does not")

    # --- recovery by code -----------------------------------------------------------------
    fresh = await client(a)
    seen = len(mails_to(ann_email))
    await fresh.auth.reset_password_for_email(ann_email, {"redirect_to": "powdermeet://reset"})
    code, link, mail = await mail_to(ann_email, seen, "a recovery mail")
    check(code and link and mail["subject"] == "Reset your password", "reset_password_for_email mails a code and a link", mail["body"])
    check("redirect_to=powdermeet%3A%2F%2Freset" in link, "the link leads to the app's allowed deep link", link)
    await fresh.auth.reset_password_for_email(f"nobody{name}@example.test")
    ok("an unknown address is answered the same, and nothing is sent")
    await refused(fresh.auth.verify_otp({"email": ann_email, "token": "000000" if code != "000000" else "000001",
                                         "type": "recovery"}), "otp_expired", "a wrong code is refused")
    recovered = await fresh.auth.verify_otp({"email": ann_email, "token": code, "type": "recovery"})
    check(recovered.user.id == ann_id and recovered.session.access_token, "verify_otp with the code signs in")
    await fresh.auth.update_user({"password": "recovered staple"})
    await refused(fresh.auth.verify_otp({"email": ann_email, "token": code, "type": "recovery"}), "otp_expired", "the code works once")

    # --- recovery by PKCE link (the app's deep link) -------------------------------------------
    await asyncio.sleep(1.1)  # the mail interval of this configuration
    pkce = await acreate_client(a, CONFIG["anon"], options=AsyncClientOptions(auto_refresh_token=False, flow_type="pkce"))
    seen = len(mails_to(ann_email))
    await pkce.auth.reset_password_for_email(ann_email, {"redirect_to": "powdermeet://reset"})
    _, link, _ = await mail_to(ann_email, seen, "a PKCE recovery mail")
    async with httpx.AsyncClient() as http:
        followed = await http.get(link, follow_redirects=False)
        location = followed.headers.get("location", "")
        check(followed.status_code == 303 and location.startswith("powdermeet://reset?code="),
              "the link leads to the app with an auth code", f"{followed.status_code} {location}")
        again = await http.get(link, follow_redirects=False)
        check("error_code=otp_expired" in again.headers.get("location", ""), "the link works once",
              again.headers.get("location", ""))
        elsewhere = link.replace("powdermeet%3A%2F%2Freset", urllib.parse.quote("https://evil.test/", safe=""))
        check("evil.test" not in (await http.get(elsewhere, follow_redirects=False)).headers.get("location", ""),
              "a redirect outside the allow list leads to the site instead")
    auth_code = urllib.parse.parse_qs(urllib.parse.urlparse(location).query)["code"][0]
    verifier = await pkce.auth._storage.get_item(f"{pkce.auth._storage_key}-code-verifier")
    exchanged = await pkce.auth.exchange_code_for_session({"auth_code": auth_code})
    check(exchanged.user.id == ann_id and exchanged.session.refresh_token, "exchange_code_for_session with the client's verifier")
    async with httpx.AsyncClient() as http:
        replay = await http.post(f"{a}/auth/v1/token?grant_type=pkce", headers={"apikey": CONFIG["anon"]},
                                 json={"auth_code": auth_code, "code_verifier": verifier})
    check(verifier and replay.status_code == 404 and replay.json().get("error_code") == "flow_state_not_found",
          "an auth code works once, even with its verifier", f"{replay.status_code} {replay.text}")

    # --- email codes (OTP) and a new account through them -------------------------------------------
    newcomer = f"anew{name}@example.test"
    otp = await client(a)
    await otp.auth.sign_in_with_otp({"email": newcomer, "options": {"data": {"username": f"anew{name}"}}})
    code, _, mail = await mail_to(newcomer, 0, "a confirmation code for a new address")
    check(mail["subject"] == "Confirm your email address", "a new address gets a confirmation", mail["subject"])
    verified = await otp.auth.verify_otp({"email": newcomer, "token": code, "type": "email"})
    check(verified.user.email == newcomer and verified.user.email_confirmed_at, "verify_otp type email confirms and signs in")
    await asyncio.sleep(1.1)
    await otp.auth.sign_in_with_otp({"email": newcomer})
    code, _, mail = await mail_to(newcomer, 1, "a magic link for a known address")
    check(mail["subject"] == "Your sign-in link", "a known address gets a magic link and code", mail["subject"])
    again = await (await client(b)).auth.verify_otp({"email": newcomer, "token": code, "type": "magiclink"})
    check(again.user.email == newcomer, "its code signs in on the other server")
    await refused(otp.auth.sign_in_with_otp({"email": f"nobody{name}@example.test", "options": {"should_create_user": False}}),
                  "otp_disabled", "should_create_user false makes no account")

    # --- email change and reauthentication ---------------------------------------------------------
    changed_to = f"aann{name}-new@example.test"
    pending = await fresh.auth.update_user({"email": changed_to})
    check(pending.user.email == ann_email and pending.user.new_email == changed_to, "update_user email waits for confirmation",
          str(pending.user))
    code, _, _ = await mail_to(changed_to, 0, "the new address's code")
    confirmed = await fresh.auth.verify_otp({"email": changed_to, "token": code, "type": "email_change"})
    check(confirmed.user.email == changed_to, "verify_otp type email_change takes the new address")
    seen = len(mails_to(changed_to))
    await fresh.auth.reauthenticate()
    code, _, mail = await mail_to(changed_to, seen, "a reauthentication code")
    check(code and mail["subject"] == "Your confirmation code", "reauthenticate mails a code")

    # --- sessions end -------------------------------------------------------------------------------
    bob, bob_id = await sign_up(a, f"abob{name}")
    token = (await bob.auth.get_session()).access_token
    refresh = (await bob.auth.get_session()).refresh_token
    check((await bob.auth.get_user(token)).user.id == bob_id, "get_user reads the user while the session is on")
    await bob.auth.sign_out()
    await refused((await client(b)).auth.get_user(token), "session_not_found", "after sign-out the access token reads no user")
    cat, cat_id = await sign_up(a, f"acat{name}")
    cat_refresh = (await cat.auth.get_session()).refresh_token
    await cat.schema("social").rpc("delete_account", {}).execute()
    # The account is gone with its sessions, so its refresh token is unknown, as GoTrue answers for a deleted user.
    await refused((await client(a)).auth.refresh_session(cat_refresh), "refresh_token_not_found",
                  "account deletion ends the refresh token at once")

    # --- the per-account limit: the 21st wrong password, then the right one after the window -----------
    dan, _ = await sign_up(a, f"adan{name}")
    dan_email = f"adan{name}@example.test"
    guesser = await client(b)
    codes = []
    for attempt in range(20):
        try:
            await guesser.auth.sign_in_with_password({"email": dan_email, "password": f"guess {attempt}"})
            fail("twenty wrong passwords", "a wrong password signed in")
        except AuthApiError as error:
            codes.append(error.code)
    check(codes == ["invalid_credentials"] * 20, "twenty wrong passwords are each refused as wrong", str(codes))
    held = await refused(guesser.auth.sign_in_with_password({"email": dan_email, "password": "guess 21"}),
                         "over_request_rate_limit", "the 21st wrong password in the window is refused (429)")
    check(held.status == 429, "with status 429", str(held.status))
    async with httpx.AsyncClient() as http:
        raw = await http.post(f"{a}/auth/v1/token?grant_type=password", headers={"apikey": CONFIG["anon"]},
                              json={"email": dan_email, "password": PASSWORD})
    wait = int(raw.headers.get("retry-after", "0"))
    check(raw.status_code == 429 and 1 <= wait <= 12, "even the right password waits, told how long (Retry-After)",
          f"{raw.status_code} {raw.headers}")
    await asyncio.sleep(wait + 0.5)
    back = await guesser.auth.sign_in_with_password({"email": dan_email, "password": PASSWORD})
    check(back.user.email == dan_email, "after the window the right password works")

    # --- the admin API (service role key) ----------------------------------------------------------------
    service = await service_client(a)
    admin = service.auth.admin
    made = await admin.create_user({"email": f"aeve{name}@example.test", "password": PASSWORD, "email_confirm": True,
                                    "user_metadata": {"username": f"aeve{name}"}, "app_metadata": {"plan": "pro"}})
    check(made.user.app_metadata.get("plan") == "pro" and made.user.email_confirmed_at, "admin.create_user", str(made.user))
    listed = await admin.list_users(page=1, per_page=500)
    check(made.user.id in {user.id for user in listed}, "admin.list_users lists it", str(len(listed)))
    got = await admin.get_user_by_id(made.user.id)
    check(got.user.email == f"aeve{name}@example.test", "admin.get_user_by_id")
    await admin.update_user_by_id(made.user.id, {"user_metadata": {"skill_level": "beginner"}, "ban_duration": "1h"})
    await refused((await client(a)).auth.sign_in_with_password({"email": f"aeve{name}@example.test", "password": PASSWORD}),
                  "user_banned", "admin.update_user_by_id bans")
    link = await admin.generate_link({"type": "magiclink", "email": newcomer})
    check(link.properties.action_link and link.properties.email_otp and link.properties.verification_type == "magiclink",
          "admin.generate_link answers the link and code a mail would carry", str(link.properties))
    invited = f"aivy{name}@example.test"
    await admin.invite_user_by_email(invited)
    code, _, mail = await mail_to(invited, 0, "an invitation")
    check(mail["subject"] == "You have been invited", "admin.invite_user_by_email mails an invitation")
    accepted = await (await client(a)).auth.verify_otp({"email": invited, "token": code, "type": "invite"})
    check(accepted.user.email == invited, "its code signs the invited person in")
    await admin.delete_user(made.user.id)
    async with httpx.AsyncClient() as http:
        gone = await http.get(f"{a}/auth/v1/admin/users/{made.user.id}",
                              headers={"apikey": CONFIG["service"], "authorization": f"Bearer {CONFIG['service']}"})
        check(gone.status_code == 404, "admin.delete_user deletes", f"{gone.status_code} {gone.text}")
        for who, key in (("the anon key", CONFIG["anon"]), ("a user's token", token)):
            denied = await http.get(f"{a}/auth/v1/admin/users", headers={"apikey": CONFIG["anon"], "authorization": f"Bearer {key}"})
            check(denied.status_code == 403 and denied.json().get("error_code") == "not_admin",
                  f"{who} may not use the admin API", f"{denied.status_code} {denied.text}")
        # GoTrue's admin roles are service_role and supabase_admin: the operator's own tokens, signed with the secret.
        operator = jwt.encode({"role": "supabase_admin", "sub": "operator"}, CONFIG["secret"], algorithm="HS256")
        listed = await http.get(f"{a}/auth/v1/admin/users", headers={"apikey": CONFIG["anon"], "authorization": f"Bearer {operator}"})
        check(listed.status_code == 200 and "users" in listed.json(), "a supabase_admin token signed with the secret is an admin",
              f"{listed.status_code} {listed.text[:300]}")
        forged = jwt.encode({"role": "supabase_admin", "sub": "operator"}, "not-the-secret-but-32-bytes-long!!", algorithm="HS256")
        denied = await http.get(f"{a}/auth/v1/admin/users", headers={"apikey": CONFIG["anon"], "authorization": f"Bearer {forged}"})
        check(denied.status_code == 403, "one signed with anything else is not", f"{denied.status_code} {denied.text}")
    finish()


asyncio.run(main())
