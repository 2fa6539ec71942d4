-- The gateway's OAuth 2.1 authorization server (/auth/v1/oauth, /admin/oauth/clients):
-- client secrets and codes kept as hashes only; redirect URIs checked when
-- registered and matched exactly (the loopback at any port); PKCE S256 always;
-- a request bound to the user who opened it; codes used once, by their client,
-- within ten minutes, a second use ending the session; a client's refresh tokens
-- refreshed by that client only; consent remembered; deletion ending sessions.
begin;
select plan(64);

\set verifier 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-the-verifier'
select rtrim(translate(encode(digest(:'verifier', 'sha256'), 'base64'), '+/', '-_'), '=') as challenge \gset

select tests.act_as_service();
select auth.gateway_sign_up('ria@example.test', 'correct horse', '{}') as s \gset
select (:'s'::jsonb -> 'user' ->> 'id') as ria \gset
select auth.gateway_sign_up('bob@example.test', 'correct horse', '{}') as s \gset
select (:'s'::jsonb -> 'user' ->> 'id') as bob \gset

-- The registry.
select auth.gateway_oauth_create_client('{"client_name": "Trail Log", "redirect_uris": ["https://traillog.example/cb"],
  "client_uri": "https://traillog.example", "logo_uri": null}', 'manual') as c \gset
select (:'c'::jsonb ->> 'client_id') as app, (:'c'::jsonb ->> 'client_secret') as secret \gset
select is(:'c'::jsonb ->> 'client_type', 'confidential', 'a client is confidential unless it asks to be public');
select is(:'c'::jsonb ->> 'token_endpoint_auth_method', 'client_secret_basic', 'and authenticates with its secret by Basic');
select ok(length(:'secret') >= 43, 'its secret is answered once, 32 random bytes');
select is(:'c'::jsonb -> 'grant_types', '["authorization_code", "refresh_token"]', 'grant types default to the code and refresh');
select is(:'c'::jsonb -> 'response_types', '["code"]', 'the one response type is code');
select is(:'c'::jsonb ->> 'registration_type', 'manual', 'made by the admin API: manual');
select ok(not :'c'::jsonb ? 'logo_uri', 'an absent logo is left out, not null');
select tests.clear_authentication();
select is((select client_secret_hash from auth.oauth_clients where id = :'app'),
  encode(digest(:'secret', 'sha256'), 'hex'), 'only the secret''s SHA-256 is stored');
select tests.act_as_service();
select ok(not auth.gateway_oauth_get_client(:'app') ? 'client_secret', 'reading a client never shows its secret');

select auth.gateway_oauth_create_client('{"client_name": "Summit CLI", "token_endpoint_auth_method": "none",
  "redirect_uris": ["http://127.0.0.1/callback", "powdermeet://oauth"], "scope": "openid email"}', 'dynamic') as p \gset
select (:'p'::jsonb ->> 'client_id') as cli \gset
select is(:'p'::jsonb ->> 'client_type', 'public', 'token_endpoint_auth_method none makes a public client');
select ok(not :'p'::jsonb ? 'client_secret', 'which has no secret');

select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["http://traillog.example/cb"]}', 'manual')$$,
  'P0001', 'validation_failed', 'plain http to another machine is refused');
select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["javascript:alert(1)"]}', 'manual')$$,
  'P0001', 'validation_failed', 'a javascript: redirect is refused');
select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["https://a.example/cb#frag"]}', 'manual')$$,
  'P0001', 'validation_failed', 'a redirect with a fragment is refused');
select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["https://a.example/cb"], "grant_types": ["password"]}', 'manual')$$,
  'P0001', 'validation_failed', 'a grant this server does not serve is refused');
select throws_ok($$select auth.gateway_oauth_create_client('{"redirect_uris": ["https://a.example/cb"]}', 'manual')$$,
  'P0001', 'validation_failed', 'a client needs a name');
select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["https://a.example/cb"], "client_type": "public", "token_endpoint_auth_method": "client_secret_post"}', 'manual')$$,
  'P0001', 'validation_failed', 'a public client with a secret method is refused');
select throws_ok($$select auth.gateway_oauth_create_client('{"client_name": "x", "redirect_uris": ["https://a.example/cb"], "scope": "admin"}', 'manual')$$,
  'P0001', 'validation_failed', 'a scope this server does not grant is refused');
select tests.clear_authentication();
select is((select count(*)::int from auth.oauth_clients), 2, 'and nothing refused was written');
update auth.oauth_clients set created_at = now() - interval '1 minute' where id = :'app';
select tests.act_as_service();

select is((auth.gateway_oauth_list_clients(1, 1) -> 'clients' -> 0 ->> 'client_id'), :'cli', 'the list is newest first');
select is((auth.gateway_oauth_list_clients(1, 1) ->> 'total')::int, 2, 'with the total beside a page');
select is(auth.gateway_oauth_update_client(:'app', '{"client_name": "Trail Log 2", "client_uri": null}') ->> 'client_uri',
  'https://traillog.example', 'an update changes what it names and keeps what it leaves null');
select throws_ok(format('select auth.gateway_oauth_update_client(%L, %L)', :'app', '{"token_endpoint_auth_method": "none"}'),
  'P0001', 'validation_failed', 'a client''s type is fixed once made');
select throws_ok(format('select auth.gateway_oauth_regenerate_secret(%L)', :'cli'), 'P0001', 'validation_failed',
  'a public client has no secret to regenerate');
select throws_ok(format('select auth.gateway_oauth_get_client(%L)', gen_random_uuid()), 'P0001', 'oauth_client_not_found',
  'an unknown client is not found');

-- The authorization request, in the order its errors must be told.
select throws_ok(format('select auth.gateway_oauth_authorize(%L, %L, %L, null, null, %L, %L, 600)', gen_random_uuid(),
  'https://traillog.example/cb', 'code', :'challenge', 'S256'), 'P0001', 'oauth_client_not_found', 'an unknown client is told first');
select throws_ok(format('select auth.gateway_oauth_authorize(%L, %L, %L, null, null, %L, %L, 600)', :'app',
  'https://evil.example/cb', 'code', :'challenge', 'S256'), 'P0001', 'invalid_redirect_uri', 'then a redirect URI it did not register');
select is(auth.gateway_oauth_authorize(:'app', 'https://traillog.example/cb', 'token', null, 'st', :'challenge', 'S256', 600),
  '{"error": "unsupported_response_type", "error_description": "response_type must be code", "redirect_uri": "https://traillog.example/cb", "state": "st"}',
  'after the redirect URI, a refusal is answered for the client to hear there, with its state');
select is(auth.gateway_oauth_authorize(:'app', 'https://traillog.example/cb', 'code', null, null, null, null, 600) ->> 'error',
  'invalid_request', 'PKCE is required');
select is(auth.gateway_oauth_authorize(:'app', 'https://traillog.example/cb', 'code', null, null, :'verifier', 'plain', 600) ->> 'error',
  'invalid_request', 'and only S256');
select is(auth.gateway_oauth_authorize(:'cli', 'powdermeet://oauth', 'code', 'openid phone', null, :'challenge', 'S256', 600) ->> 'error',
  'invalid_scope', 'a scope beyond the client''s own is refused');
select tests.clear_authentication();
select is((select count(*)::int from auth.oauth_authorizations), 0, 'and no refused request is kept');
select tests.act_as_service();
select ok(auth.gateway_oauth_authorize(:'cli', 'http://127.0.0.1:53121/callback', 'code', null, null, :'challenge', 'S256', 600)
  ? 'authorization_id', 'the loopback redirect matches at any port');

select auth.gateway_oauth_authorize(:'app', null, 'code', 'email profile', 'st&te 1', :'challenge', 'S256', 600) as r \gset
select (:'r'::jsonb ->> 'authorization_id') as authorization \gset
select is(:'r'::jsonb ->> 'redirect_uri', 'https://traillog.example/cb', 'with one redirect URI registered, it may be left out');

-- Consent: bound to the first user to open it.
select auth.gateway_oauth_authorization(:'authorization', :'ria') as d \gset
select is(:'d'::jsonb -> 'client' ->> 'name', 'Trail Log 2', 'the consent page is told the client');
select is(:'d'::jsonb ->> 'scope', 'email profile', 'and the scopes asked for');
select is(:'d'::jsonb -> 'user' ->> 'email', 'ria@example.test', 'and who is consenting');
select throws_ok(format('select auth.gateway_oauth_authorization(%L, %L)', :'authorization', :'bob'), 'P0001',
  'oauth_authorization_not_found', 'another user cannot see a request bound to someone else');
select throws_ok(format('select auth.gateway_oauth_consent(%L, %L, %L)', :'authorization', :'bob', 'approve'), 'P0001',
  'oauth_authorization_not_found', 'nor approve it');
select auth.gateway_oauth_consent(:'authorization', :'ria', 'approve') as a \gset
select (:'a'::jsonb ->> 'code') as code \gset
select is(:'a'::jsonb ->> 'state', 'st&te 1', 'approval answers the code with the request''s state');
select throws_ok(format('select auth.gateway_oauth_consent(%L, %L, %L)', :'authorization', :'ria', 'approve'), 'P0001',
  'oauth_authorization_not_found', 'a request is decided once');
select tests.clear_authentication();
select is((select count(*)::int from auth.oauth_authorizations where auth_code_hash = encode(digest(:'code', 'sha256'), 'hex')), 1,
  'only the code''s SHA-256 is stored');
select tests.act_as_service();

-- The code grant.
select throws_ok(format('select auth.gateway_oauth_code_grant(%L, %L, %L, %L, %L)', :'app', 'wrong', :'code',
  'https://traillog.example/cb', :'verifier'), 'P0001', 'invalid_client', 'a wrong secret is refused');
select throws_ok(format('select auth.gateway_oauth_code_grant(%L, null, %L, %L, %L)', :'cli', :'code',
  'https://traillog.example/cb', :'verifier'), 'P0001', 'invalid_grant', 'another client cannot use the code');
select throws_ok(format('select auth.gateway_oauth_code_grant(%L, %L, %L, %L, %L)', :'app', :'secret', :'code',
  'https://traillog.example/other', :'verifier'), 'P0001', 'invalid_grant', 'nor at another redirect URI');
select throws_ok(format('select auth.gateway_oauth_code_grant(%L, %L, %L, %L, %L)', :'app', :'secret', :'code',
  'https://traillog.example/cb', :'verifier' || 'x'), 'P0001', 'invalid_grant', 'nor with another verifier');
select auth.gateway_oauth_code_grant(:'app', :'secret', :'code', 'https://traillog.example/cb', :'verifier') as g \gset
select is(:'g'::jsonb -> 'user' ->> 'id', :'ria', 'the right code, secret, URI and verifier start a session for the user');
select is(:'g'::jsonb ->> 'client_id', :'app', 'which names its client');
select is(:'g'::jsonb ->> 'scope', 'email profile', 'and its scope');
select is(auth.gateway_oauth_code_grant(:'app', :'secret', :'code', 'https://traillog.example/cb', :'verifier') ->> 'error',
  'invalid_grant', 'the code a second time is refused');
select ok(not auth.gateway_session_active((:'g'::jsonb ->> 'session_id')::uuid), 'and ends the session the first use gave');

-- Remembered consent, and the refresh grant.
select auth.gateway_oauth_authorize(:'app', null, 'code', 'email', null, :'challenge', 'S256', 600) as r \gset
select auth.gateway_oauth_authorization((:'r'::jsonb ->> 'authorization_id')::uuid, :'ria') as d \gset
select ok(:'d'::jsonb ? 'code', 'scopes the user allowed before need no consent page');
select auth.gateway_oauth_code_grant(:'app', :'secret', :'d'::jsonb ->> 'code', 'https://traillog.example/cb', :'verifier') as g \gset
select throws_ok(format('select auth.gateway_refresh_grant(%L)', :'g'::jsonb ->> 'refresh_token'), 'P0001', 'refresh_token_not_found',
  'a client''s refresh token does not refresh at the app''s own /token');
select throws_ok(format('select auth.gateway_oauth_refresh_grant(%L, null, %L)', :'cli', :'g'::jsonb ->> 'refresh_token'), 'P0001',
  'invalid_grant', 'nor for another client');
select ok(auth.gateway_refresh_grant(:'s'::jsonb ->> 'refresh_token') ? 'refresh_token', 'the app''s own tokens still refresh there');
select is(auth.gateway_oauth_refresh_grant(:'app', :'secret', :'g'::jsonb ->> 'refresh_token') ->> 'client_id', :'app',
  'the client refreshes its own session, which keeps its client');

-- Denial and expiry.
select auth.gateway_oauth_authorize(:'app', null, 'code', 'openid', 'x', :'challenge', 'S256', 600) as r \gset
select is(auth.gateway_oauth_consent((:'r'::jsonb ->> 'authorization_id')::uuid, :'bob', 'deny') ->> 'error', 'access_denied',
  'a denial answers access_denied to the client');
select auth.gateway_oauth_authorize(:'app', null, 'code', 'openid', null, :'challenge', 'S256', 600) as r \gset
select tests.clear_authentication();
update auth.oauth_authorizations set expires_at = now() - interval '1 second' where id = (:'r'::jsonb ->> 'authorization_id')::uuid;
select tests.act_as_service();
select throws_ok(format('select auth.gateway_oauth_authorization(%L, %L)', :'r'::jsonb ->> 'authorization_id', :'bob'), 'P0001',
  'oauth_authorization_not_found', 'an expired request is gone');
select auth.gateway_oauth_authorize(:'app', null, 'code', 'openid', null, :'challenge', 'S256', 600) as r \gset
select auth.gateway_oauth_consent((:'r'::jsonb ->> 'authorization_id')::uuid, :'bob', 'approve') as a \gset
select tests.clear_authentication();
update auth.oauth_authorizations set decided_at = now() - interval '11 minutes' where id = (:'r'::jsonb ->> 'authorization_id')::uuid;
select tests.act_as_service();
select throws_ok(format('select auth.gateway_oauth_code_grant(%L, %L, %L, %L, %L)', :'app', :'secret', :'a'::jsonb ->> 'code',
  'https://traillog.example/cb', :'verifier'), 'P0001', 'invalid_grant', 'a code older than ten minutes is refused');

-- A new secret, then deletion.
select auth.gateway_oauth_regenerate_secret(:'app') ->> 'client_secret' as fresh \gset
select throws_ok(format('select auth.gateway_oauth_refresh_grant(%L, %L, %L)', :'app', :'secret', 'any'), 'P0001', 'invalid_client',
  'a regenerated secret retires the old one at once');
select auth.gateway_oauth_delete_client(:'app');
select is((select count(*)::int from auth.refresh_sessions where oauth_client_id = :'app' and revoked_at is null), 0,
  'deleting a client ends its sessions');
select throws_ok(format('select auth.gateway_oauth_authorize(%L, %L, %L, null, null, %L, %L, 600)', :'app',
  'https://traillog.example/cb', 'code', :'challenge', 'S256'), 'P0001', 'oauth_client_not_found', 'and it takes no more requests');
select tests.clear_authentication();

-- Privileges.
select ok((select bool_and(c.relrowsecurity) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'auth' and c.relname in ('oauth_clients', 'oauth_authorizations', 'oauth_consents')),
  'every table of the server has row level security');
select ok(not has_table_privilege('authenticated', 'auth.oauth_clients', 'select')
          and not has_table_privilege('anon', 'auth.oauth_authorizations', 'select'),
  'no user reads the registry or the requests');

select * from finish();
rollback;
