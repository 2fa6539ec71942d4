"""/auth/v1 as an OAuth 2.1 authorization server, from both sides:

- the operator's: the hosted platform's own Python client (supabase_auth's
  admin.oauth) registers, lists (with its pagination headers), reads, updates,
  regenerates the secret of and deletes clients; the anon key may not;
- a third-party application's: Authlib's OAuth 2 client discovers the server
  (RFC 8414), sends the browser to /oauth/authorize with PKCE S256, and trades
  the code for tokens with its secret by Basic, then refreshes; a public client
  registered by itself (RFC 7591) does the same with a loopback redirect and no
  secret;
- the user's, on the site's consent page: the request is read and approved (or
  denied) with the user's own session, and no other user can see or decide it;
  consent once given is remembered;
- the rules: a code works once (a second use ends the session), only for its
  client and redirect URI and verifier; an application's refresh token does not
  refresh at the app's /token; the access token names the client and scope, and
  works as the user's at the platform's endpoints; deleting a client ends its
  sessions; a server with the OAuth server off says how to turn it on.
"""

import asyncio
import base64
import hashlib
import secrets
import urllib.parse
import warnings

warnings.filterwarnings("ignore", module="authlib")

import httpx
import jwt
from authlib.integrations.httpx_client import AsyncOAuth2Client
from authlib.integrations.base_client.errors import OAuthError
from supabase_auth.errors import AuthApiError
from supabase_auth.types import CreateOAuthClientParams, PageParams, UpdateOAuthClientParams

from support import CONFIG, check, client, fail, finish, service_client, sign_up


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


async def authorize(http, url, **params):
    """The browser's first hop: /oauth/authorize answers a redirect; its Location."""
    response = await http.get(url if not params else f"{url}?{urllib.parse.urlencode(params)}")
    if response.status_code not in (302, 303):
        fail("authorize", f"expected a redirect, got {response.status_code}: {response.text}")
    return response.headers["location"]


async def consent_api(http, base, token, authorization, action=None):
    headers = {"apikey": CONFIG["anon"], "authorization": f"Bearer {token}"}
    if action is None:
        return await http.get(f"{base}/auth/v1/oauth/authorizations/{authorization}", headers=headers)
    return await http.post(f"{base}/auth/v1/oauth/authorizations/{authorization}/consent", headers=headers,
                           json={"action": action})


async def main():
    a = CONFIG["a"]
    http = httpx.AsyncClient(timeout=20)
    service = await service_client(a)
    admin = service.auth.admin

    # --- the operator's registry ------------------------------------------------------------------------
    made = await admin.oauth.create_client(CreateOAuthClientParams(
        client_name="Trail Log", redirect_uris=["https://traillog.example/callback"], client_uri="https://traillog.example",
        scope="openid email profile"))
    app = made.client
    check(app.client_type == "confidential" and app.token_endpoint_auth_method == "client_secret_basic"
          and app.registration_type == "manual", "admin.oauth.create_client makes a confidential client", f"{app}")
    check(app.client_secret and len(app.client_secret) >= 43, "and answers its secret once", f"{app}")
    check(app.grant_types == ["authorization_code", "refresh_token"] and app.response_types == ["code"],
          "with the code and refresh grants by default", f"{app}")
    spare = (await admin.oauth.create_client(CreateOAuthClientParams(
        client_name="Spare", redirect_uris=["https://spare.example/cb"]))).client
    listed = await admin.oauth.list_clients(PageParams(page=1, per_page=1))
    check(len(listed.clients) == 1 and listed.total >= 2 and listed.next_page == 2 and listed.last_page >= 2,
          "list_clients pages, with the total and the next and last pages from the headers", f"{listed}")
    read = (await admin.oauth.get_client(app.client_id)).client
    check(read.client_name == "Trail Log" and read.client_secret is None, "get_client reads it, without the secret", f"{read}")
    renamed = (await admin.oauth.update_client(app.client_id, UpdateOAuthClientParams(client_name="Trail Log Pro"))).client
    check(renamed.client_name == "Trail Log Pro" and renamed.client_uri == "https://traillog.example"
          and renamed.redirect_uris == ["https://traillog.example/callback"],
          "update_client changes the name and keeps what it left unset", f"{renamed}")
    fresh = (await admin.oauth.regenerate_client_secret(spare.client_id)).client
    check(fresh.client_secret and fresh.client_secret != spare.client_secret, "regenerate_client_secret answers a new secret")
    await admin.oauth.delete_client(spare.client_id)
    try:
        await admin.oauth.get_client(spare.client_id)
        fail("a deleted client is gone", "get_client answered")
    except AuthApiError as error:
        check(error.status == 404 and error.code == "oauth_client_not_found", "a deleted client is gone (404)",
              f"{error.status} {error.code}: {error}")
    try:
        await admin.oauth.create_client(CreateOAuthClientParams(client_name="Bad", redirect_uris=["http://evil.example/cb"]))
        fail("plain http to another machine is refused", "it was registered")
    except AuthApiError as error:
        check(error.status == 400 and "http" in error.message, "plain http to another machine is refused, saying why", f"{error}")
    anon = await client(a)
    try:
        await anon.auth.admin.oauth.list_clients()
        fail("the anon key may not use the registry", "it listed clients")
    except AuthApiError as error:
        check(error.status == 403, "the anon key may not use the registry", f"{error}")

    # --- discovery, then a confidential client's authorization code flow ----------------------------------
    found = (await http.get(f"{a}/auth/v1/.well-known/oauth-authorization-server")).json()
    check(found["authorization_endpoint"].endswith("/auth/v1/oauth/authorize") and found["code_challenge_methods_supported"] == ["S256"]
          and "registration_endpoint" in found, "RFC 8414 metadata is served with no key", f"{found}")
    ria, ria_id = await sign_up(a, "oauth-ria")
    ria_token = (await ria.auth.get_session()).access_token
    bob, _ = await sign_up(a, "oauth-bob")
    bob_token = (await bob.auth.get_session()).access_token

    redirect_uri = "https://traillog.example/callback"
    oauth = AsyncOAuth2Client(app.client_id, app.client_secret, scope="openid email", redirect_uri=redirect_uri,
                              code_challenge_method="S256", token_endpoint_auth_method="client_secret_basic")
    verifier = secrets.token_urlsafe(48)
    uri, state = oauth.create_authorization_url(found["authorization_endpoint"], code_verifier=verifier)
    consent_page = await authorize(http, uri)
    check(consent_page.startswith("https://app.summit.test/oauth/consent?authorization_id="),
          "/oauth/authorize sends the browser to the site's consent page", consent_page)
    authorization = query_of(consent_page)["authorization_id"]
    details = await consent_api(http, a, ria_token, authorization)
    body = details.json()
    check(details.status_code == 200 and body["client"]["name"] == "Trail Log Pro" and body["scope"] == "email openid"
          and body["user"]["id"] == ria_id, "the consent page reads the request with the user's session", f"{body}")
    theirs = await consent_api(http, a, bob_token, authorization)
    check(theirs.status_code == 404 and theirs.json()["error_code"] == "oauth_authorization_not_found",
          "another user cannot read a request bound to someone else", theirs.text)
    theirs = await consent_api(http, a, bob_token, authorization, "approve")
    check(theirs.status_code == 404, "nor approve it", theirs.text)
    approved = await consent_api(http, a, ria_token, authorization, "approve")
    back = approved.json()["redirect_url"]
    check(back.startswith(redirect_uri + "?code=") and query_of(back)["state"] == state,
          "approving answers the redirect back with a code and the state", back)

    token = await oauth.fetch_token(found["token_endpoint"], authorization_response=back, code_verifier=verifier, state=state)
    check(token.get("access_token") and token.get("refresh_token") and token.get("token_type", "").lower() == "bearer",
          "Authlib trades the code, with its secret by Basic, for tokens", f"{token}")
    claims = jwt.decode(token["access_token"], options={"verify_signature": False})
    check(claims["sub"] == ria_id and claims["client_id"] == app.client_id and claims["scope"] == "email openid",
          "the access token is the user's, naming the client and its scope", f"{claims}")
    as_user = await ria.auth.get_user(token["access_token"])
    check(as_user.user.id == ria_id, "and works as the user's at the platform's endpoints")
    try:
        await oauth.fetch_token(found["token_endpoint"], authorization_response=back, code_verifier=verifier, state=state)
        fail("a code works once", "it was traded twice")
    except OAuthError as error:
        check(error.error == "invalid_grant", "a code works once", f"{error}")
    refreshed = await http.post(found["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": token["refresh_token"]},
                                auth=(app.client_id, app.client_secret))
    check(refreshed.status_code == 400 and refreshed.json()["error"] == "invalid_grant",
          "and its second use ended the session it gave", refreshed.text)

    # --- refresh, and the rules around it -------------------------------------------------------------
    verifier = secrets.token_urlsafe(48)
    uri, state = oauth.create_authorization_url(found["authorization_endpoint"], code_verifier=verifier)
    authorization = query_of(await authorize(http, uri))["authorization_id"]
    again = (await consent_api(http, a, ria_token, authorization)).json()
    check("redirect_url" in again and "code=" in again["redirect_url"],
          "scopes the user allowed before need no second consent", f"{again}")
    token = await oauth.fetch_token(found["token_endpoint"], authorization_response=again["redirect_url"],
                                    code_verifier=verifier, state=state)
    first_party = await http.post(f"{a}/auth/v1/token?grant_type=refresh_token", headers={"apikey": CONFIG["anon"]},
                                  json={"refresh_token": token["refresh_token"]})
    check(first_party.status_code == 400, "an application's refresh token does not refresh at the app's /token", first_party.text)
    renewed = await oauth.refresh_token(found["token_endpoint"], refresh_token=token["refresh_token"])
    check(renewed["refresh_token"] != token["refresh_token"]
          and jwt.decode(renewed["access_token"], options={"verify_signature": False})["client_id"] == app.client_id,
          "Authlib refreshes at /oauth/token: a rotated token, the same client", f"{renewed}")
    wrong = await http.post(found["token_endpoint"], data={"grant_type": "refresh_token", "refresh_token": renewed["refresh_token"]},
                            auth=(app.client_id, "not-the-secret"))
    check(wrong.status_code == 401 and wrong.json()["error"] == "invalid_client", "a wrong secret is invalid_client (401)", wrong.text)

    # --- refusals at the browser and at the redirect ---------------------------------------------------
    challenge = base64.urlsafe_b64encode(hashlib.sha256(b"x" * 50).digest()).rstrip(b"=").decode()
    stray = await http.get(f"{a}/auth/v1/oauth/authorize", params={
        "client_id": app.client_id, "redirect_uri": "https://evil.example/cb", "response_type": "code",
        "code_challenge": challenge, "code_challenge_method": "S256"})
    check(stray.status_code == 400 and "location" not in stray.headers and stray.json()["error_code"] == "invalid_redirect_uri",
          "an unregistered redirect URI is told to the browser, never redirected to", stray.text)
    no_pkce = await authorize(http, f"{a}/auth/v1/oauth/authorize", client_id=app.client_id, redirect_uri=redirect_uri,
                              response_type="code", state="s1")
    check(query_of(no_pkce) == {"error": "invalid_request", "state": "s1",
                                "error_description": "PKCE is required: send code_challenge with code_challenge_method=S256"},
          "a request without PKCE is refused at the application's redirect URI", no_pkce)
    authorization = query_of(await authorize(http, f"{a}/auth/v1/oauth/authorize", client_id=app.client_id, redirect_uri=redirect_uri,
                                             response_type="code", scope="profile", state="s2", code_challenge=challenge,
                                             code_challenge_method="S256"))["authorization_id"]
    denied = (await consent_api(http, a, bob_token, authorization, "deny")).json()["redirect_url"]
    check(query_of(denied)["error"] == "access_denied" and query_of(denied)["state"] == "s2",
          "a denial answers access_denied at the redirect URI", denied)

    # --- a public client that registered itself, on the loopback --------------------------------------
    registered = await http.post(found["registration_endpoint"], json={
        "client_name": "Summit Desk", "redirect_uris": ["http://127.0.0.1/callback"], "token_endpoint_auth_method": "none"})
    desk = registered.json()
    check(registered.status_code == 201 and desk["client_type"] == "public" and "client_secret" not in desk
          and desk["registration_type"] == "dynamic", "RFC 7591 registration makes a public client with no secret", registered.text)
    refused_registration = await http.post(found["registration_endpoint"], json={"client_name": "x", "redirect_uris": ["javascript:1"]})
    check(refused_registration.status_code == 400 and refused_registration.json()["error"] == "invalid_redirect_uri",
          "a registration with a bad redirect URI is refused in RFC 7591's terms", refused_registration.text)
    public = AsyncOAuth2Client(desk["client_id"], scope="email", redirect_uri="http://127.0.0.1:48213/callback",
                               code_challenge_method="S256", token_endpoint_auth_method="none")
    verifier = secrets.token_urlsafe(48)
    uri, state = public.create_authorization_url(found["authorization_endpoint"], code_verifier=verifier)
    authorization = query_of(await authorize(http, uri))["authorization_id"]
    back = (await consent_api(http, a, bob_token, authorization, "approve")).json()["redirect_url"]
    check(back.startswith("http://127.0.0.1:48213/callback?code="), "the loopback redirect keeps the port the app listens on", back)
    try:
        await public.fetch_token(found["token_endpoint"], authorization_response=back, code_verifier=secrets.token_urlsafe(48), state=state)
        fail("another verifier is refused", "the code was traded")
    except OAuthError as error:
        check(error.error == "invalid_grant", "a public client's code needs its own verifier", f"{error}")
    public_token = await public.fetch_token(found["token_endpoint"], authorization_response=back, code_verifier=verifier, state=state)
    check(jwt.decode(public_token["access_token"], options={"verify_signature": False})["client_id"] == desk["client_id"],
          "with it, the public client gets tokens by PKCE alone", f"{public_token}")

    # --- deletion, and a server with the OAuth server off -----------------------------------------------
    await admin.oauth.delete_client(desk["client_id"])
    after = await http.post(found["token_endpoint"], data={"grant_type": "refresh_token", "client_id": desk["client_id"],
                                                           "refresh_token": public_token["refresh_token"]})
    check(after.status_code == 401, "a deleted client's tokens refresh no more", after.text)
    closed = await http.get(f"{CONFIG['closed']}/auth/v1/admin/oauth/clients",
                            headers={"apikey": CONFIG["service"], "authorization": f"Bearer {CONFIG['service']}"})
    check(closed.status_code == 404 and closed.json()["error_code"] == "oauth_server_disabled"
          and "SUMMIT_AUTH_OAUTH_SERVER" in closed.json()["msg"], "with the OAuth server off, the answer says what to set", closed.text)
    await http.aclose()
    finish()


asyncio.run(main())
