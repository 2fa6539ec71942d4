-- The gateway's auth functions (/auth/v1): bcrypt passwords, sessions, rotating
-- refresh tokens stored as hashes, reuse revoking the session, sign-out scopes,
-- and nobody but the service role reaching any of it.
begin;
select plan(24);

select tests.act_as_service();
select auth.gateway_sign_up('Tia@Example.test', 'correct horse', '{"username": "tia"}') as s \gset
select tests.clear_authentication();
select ok((:'s'::jsonb -> 'user' ->> 'id') is not null, 'sign-up answers the user');
select is((select email from auth.users where id = (:'s'::jsonb -> 'user' ->> 'id')::uuid), 'tia@example.test', 'the email is stored lowercased');
select is((select username from social.profiles where id = (:'s'::jsonb -> 'user' ->> 'id')::uuid), 'tia', 'the username in the metadata made a profile');
select ok((select hash like '$2a$10$%' from auth.password_hashes where user_id = (:'s'::jsonb -> 'user' ->> 'id')::uuid), 'the password is a bcrypt hash');
select ok((select hash = public.crypt('correct horse', hash) from auth.password_hashes where user_id = (:'s'::jsonb -> 'user' ->> 'id')::uuid),
  'the hash verifies the password');
select is((select count(*)::int from auth.refresh_token_hashes where token_hash = :'s'::jsonb ->> 'refresh_token'), 0,
  'the refresh token is not stored as such');
select is((select count(*)::int from auth.refresh_token_hashes where token_hash = auth.gateway_token_hash(:'s'::jsonb ->> 'refresh_token')), 1,
  'its SHA-256 is');

select tests.act_as_service();
select throws_ok($$select auth.gateway_sign_up('TIA@example.test', 'another one', '{}')$$, 'P0001', 'user_already_exists',
  'the same email in other case is refused');
select throws_ok($$select auth.gateway_sign_up('uma@example.test', 'short', '{}')$$, 'P0001', 'weak_password', 'a short password is refused');
select throws_ok($$select auth.gateway_sign_up('uma@example.test', repeat('é', 40), '{}')$$, 'P0001', 'weak_password',
  'a password over bcrypt''s 72 bytes is refused');
select throws_ok($$select auth.gateway_sign_up('uma-at-example', 'correct horse', '{}')$$, 'P0001', 'validation_failed', 'a malformed email is refused');
select throws_ok($$select auth.gateway_sign_up('uma@example.test', 'correct horse', '[1]')$$, 'P0001', 'validation_failed',
  'metadata that is not an object is refused');
select is((select count(*)::int from auth.users where email like 'uma%'), 0, 'nothing was written by the refusals');

select lives_ok($$select auth.gateway_password_grant('tia@example.test', 'correct horse')$$, 'the right password signs in');
select throws_ok($$select auth.gateway_password_grant('tia@example.test', 'wrong horse')$$, 'P0001', 'invalid_credentials', 'a wrong password does not');
select throws_ok($$select auth.gateway_password_grant('nobody@example.test', 'correct horse')$$, 'P0001', 'invalid_credentials',
  'an unknown email gets the same answer');

-- Rotation, then a reuse: the session goes.
select auth.gateway_refresh_grant(:'s'::jsonb ->> 'refresh_token') as r \gset
select isnt(:'r'::jsonb ->> 'refresh_token', :'s'::jsonb ->> 'refresh_token', 'a refresh issues a new token');
select is(:'r'::jsonb ->> 'session_id', :'s'::jsonb ->> 'session_id', 'in the same session');
select is(auth.gateway_refresh_grant(:'s'::jsonb ->> 'refresh_token') ->> 'error', 'refresh_token_already_used', 'the old token again is refused');
select ok(not auth.gateway_session_active((:'s'::jsonb ->> 'session_id')::uuid), '… and its session is revoked');
select throws_ok(format('select auth.gateway_refresh_grant(%L)', :'r'::jsonb ->> 'refresh_token'), 'P0001', 'session_not_found',
  'so the newest token of that session stops working too');

-- Sign-out scopes.
select auth.gateway_password_grant('tia@example.test', 'correct horse') as one \gset
select auth.gateway_password_grant('tia@example.test', 'correct horse') as two \gset
select is(auth.gateway_sign_out((:'one'::jsonb -> 'user' ->> 'id')::uuid, (:'one'::jsonb ->> 'session_id')::uuid, 'others'),
  2, 'others: every other live session (two sign-ins) is revoked');
select ok(auth.gateway_session_active((:'one'::jsonb ->> 'session_id')::uuid), 'others keeps this one');
select tests.clear_authentication();

-- Privileges.
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'auth' and p.proname like 'gateway_%'
             and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))), 0,
  'anon and authenticated may execute none of the gateway''s auth functions');

select * from finish();
rollback;
