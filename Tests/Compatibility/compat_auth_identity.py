"""Asymmetric access tokens and Sign in with Apple and Google through the hosted
platform's own Python client (supabase_auth inside `supabase`), and PyJWT beside it:

- access tokens are ES256 with a kid; the client's get_claims verifies them
  against /auth/v1/.well-known/jwks.json, and PyJWT does too;
- a token of the key the signing key replaced still works until it expires; one
  of an unknown key does not;
- sign_in_with_id_token with Apple (key set in a file) and Google (key set over
  HTTP): accounts made, found again and linked by a vouched address, identities
  listed, every check (nonce, audience, signature) refusing;
- TOTP second factors through the client's mfa API, with codes computed here
  (RFC 6238 with the standard library): aal2 after verifying, kept by a refresh,
  needed to remove the factor.

The servers' keys are made by CompatibilitySuiteTests; CONFIG names the private
keys this suite signs provider tokens with (support.py says what CONFIG holds).
"""

import asyncio
import base64
import hashlib
import hmac
import json
import struct
import time
import uuid

import httpx
import jwt
from supabase_auth.errors import AuthApiError

from support import CONFIG, check, client, fail, finish, private_key, provider_token, sign_up, thumbprint


def totp(secret, at=None):
    """RFC 6238: HMAC-SHA-1 over the 30-second step, dynamically truncated to six digits."""
    digest = hmac.new(base64.b32decode(secret), struct.pack(">Q", int((at or time.time()) // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 15
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


async def refused(call, name, status=400):
    try:
        result = await call
    except AuthApiError as error:
        check(error.status == status, name, f"expected {status}, got {error.status} {error.code}: {error.message}")
        return error
    fail(name, f"expected a refusal, got {result!r}")


async def main():
    a, b = CONFIG["a"], CONFIG["b"]
    name = uuid.uuid4().hex[:6]

    # --- access tokens: ES256 with a kid, verified by the key set --------------------------------------
    ann, ann_id = await sign_up(a, f"kann{name}")
    session = await ann.auth.get_session()
    header = jwt.get_unverified_header(session.access_token)
    check(header["alg"] == "ES256" and header.get("kid"), "access tokens are ES256 with a kid", str(header))
    claims = await ann.auth.get_claims()
    check(claims and claims["claims"]["sub"] == ann_id and claims["headers"]["kid"] == header["kid"],
          "the client's get_claims verifies the token against the published key set", str(claims))
    async with httpx.AsyncClient() as http:
        published = (await http.get(f"{a}/auth/v1/.well-known/jwks.json")).json()
    kids = [key["kid"] for key in published["keys"]]
    check(len(kids) == 2 and kids[0] == header["kid"], "the key set lists the signing key, then the one it replaced", str(kids))
    check(all("d" not in key for key in published["keys"]), "and no private part")
    decoded = jwt.decode(session.access_token, jwt.PyJWK(published["keys"][0]).key, algorithms=["ES256"], audience="authenticated")
    check(decoded["sub"] == ann_id and decoded["session_id"], "PyJWT verifies it too")

    # --- rotation: the earlier key's tokens still pass, an unknown key's do not -----------------------
    earlier = dict(decoded, exp=int(time.time()) + 300)
    old_token = jwt.encode(earlier, private_key(CONFIG["previous_key"]), algorithm="ES256", headers={"kid": kids[1]})
    async with httpx.AsyncClient() as http:
        headers = {"apikey": CONFIG["anon"], "authorization": f"Bearer {old_token}"}
        me = await http.get(f"{b}/auth/v1/user", headers=headers)
        check(me.status_code == 200 and me.json()["id"] == ann_id, "a token of the replaced key still signs in",
              f"{me.status_code} {me.text}")
        rows = await http.get(f"{b}/rest/v1/profiles?select=username&id=eq.{ann_id}",
                              headers=headers | {"accept-profile": "social"})
        check(rows.status_code == 200 and rows.json() == [{"username": f"kann{name}"}], "and reads through REST",
              f"{rows.status_code} {rows.text}")
        stranger = jwt.encode(earlier, private_key(CONFIG["apple_key"]), algorithm="RS256", headers={"kid": kids[1]})
        denied = await http.get(f"{b}/rest/v1/profiles", headers={"apikey": CONFIG["anon"], "authorization": f"Bearer {stranger}",
                                                                  "accept-profile": "social"})
        check(denied.status_code == 401, "a token of another key under a known kid is refused", f"{denied.status_code} {denied.text}")

    # --- Sign in with Apple ----------------------------------------------------------------------------
    apple = "https://appleid.apple.com"
    subject = f"0012{name}.apple"
    fay = await client(a)
    signed = await fay.auth.sign_in_with_id_token({
        "provider": "apple", "nonce": f"nonce-{name}",
        "token": provider_token(CONFIG["apple_key"], apple, "app.summit.test", subject, nonce=f"nonce-{name}",
                                email=f"kfay{name}@privaterelay.example", verified="true")})
    user = signed.user
    check(user.email == f"kfay{name}@privaterelay.example" and user.app_metadata.get("provider") == "apple",
          "sign_in_with_id_token with Apple makes an account with the vouched address", str(user))
    identities = (await fay.auth.get_user_identities()).identities
    check(sorted(identity.provider for identity in identities) == ["apple", "email"] and
          next(i for i in identities if i.provider == "apple").id == subject,
          "get_user_identities lists the Apple identity by Apple's subject", str(identities))
    again = await (await client(b)).auth.sign_in_with_id_token({
        "provider": "apple", "nonce": "second",
        "token": provider_token(CONFIG["apple_key"], apple, "app.summit.test.web", subject, nonce="second")})
    check(again.user.id == user.id, "the same Apple account on the web app's client id is the same user")
    await refused((await client(a)).auth.sign_in_with_id_token({
        "provider": "apple", "nonce": "not it",
        "token": provider_token(CONFIG["apple_key"], apple, "app.summit.test", subject, nonce="the one hashed")}),
        "a nonce that does not hash to the token's is refused")
    await refused((await client(a)).auth.sign_in_with_id_token({
        "provider": "apple", "nonce": "n",
        "token": provider_token(CONFIG["apple_key"], apple, "com.someone.else", subject, nonce="n")}),
        "a token for another app is refused")
    await refused((await client(a)).auth.sign_in_with_id_token({
        "provider": "apple", "nonce": "n",
        "token": provider_token(CONFIG["google_key"], apple, "app.summit.test", subject, nonce="n")}),
        "a token signed by a key not in Apple's set is refused")

    # --- Sign in with Google, linking to an email account -----------------------------------------------
    gus, gus_id = await sign_up(a, f"kgus{name}")
    google = await client(b)
    linked = await google.auth.sign_in_with_id_token({
        "provider": "google",
        "token": provider_token(CONFIG["google_key"], "https://accounts.google.com", "summit-test.apps.googleusercontent.com",
                                f"g{name}", email=f"kgus{name}@example.test", verified=True, name="Gus")})
    check(linked.user.id == gus_id, "Google vouching for an email account's address signs in to that account")
    check(linked.user.app_metadata.get("providers") == ["email", "google"], "which lists both providers",
          str(linked.user.app_metadata))
    await refused((await client(a)).auth.sign_in_with_id_token({"provider": "facebook", "token": "x.y.z"}),
                  "a provider that is not enabled is refused")

    # --- TOTP second factors ---------------------------------------------------------------------------
    mia, mia_id = await sign_up(a, f"kmia{name}")
    enrolled = await mia.auth.mfa.enroll({"factor_type": "totp", "friendly_name": "Phone", "issuer": "PowderMeet"})
    check(enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,<svg") and
          enrolled.totp.uri.startswith("otpauth://totp/PowderMeet:") and f"secret={enrolled.totp.secret}" in enrolled.totp.uri,
          "mfa.enroll answers a secret, its otpauth URI and a QR code", str(enrolled.totp.uri))
    level = await mia.auth.mfa.get_authenticator_assurance_level()
    check(level.current_level == "aal1", "before verifying the session is aal1", str(level))
    challenge = await mia.auth.mfa.challenge({"factor_id": enrolled.id})
    try:
        await mia.auth.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id,
                                   "code": "000000" if totp(enrolled.totp.secret) != "000000" else "111111"})
        fail("a wrong code is refused", "it verified")
    except AuthApiError as error:
        check(error.code == "mfa_verification_failed" and error.status == 422, "a wrong code is refused", str(error.code))
    await mia.auth.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id, "code": totp(enrolled.totp.secret)})
    level = await mia.auth.mfa.get_authenticator_assurance_level()
    check(level.current_level == "aal2" and level.next_level == "aal2" and
          level.current_authentication_methods[0].method == "totp",
          "mfa.verify raises the session to aal2 with totp first among its methods", str(level))
    factors = await mia.auth.mfa.list_factors()
    check([factor.id for factor in factors.totp] == [enrolled.id], "mfa.list_factors lists the verified factor", str(factors))
    await mia.auth.refresh_session()
    check((await mia.auth.mfa.get_authenticator_assurance_level()).current_level == "aal2", "a refresh keeps aal2")
    other = await client(b)
    await other.auth.sign_in_with_password({"email": f"kmia{name}@example.test", "password": "correct horse battery"})
    check((await other.auth.mfa.get_authenticator_assurance_level()).next_level == "aal2",
          "a new password session is told it can reach aal2")
    await refused(other.auth.mfa.unenroll({"factor_id": enrolled.id}), "an aal1 session cannot remove a verified factor", 403)
    gone = await mia.auth.mfa.unenroll({"factor_id": enrolled.id})
    check(gone.id == enrolled.id and not (await mia.auth.mfa.list_factors()).all, "the aal2 session removes it")
    finish()


asyncio.run(main())
