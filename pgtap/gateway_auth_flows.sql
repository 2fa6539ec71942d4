-- The gateway's mailed codes and the flows around them (/auth/v1): codes kept as
-- hashes only, used once, expiring, superseded, paced; recovery that tells
-- nothing about unknown addresses; PKCE exchanges; user updates; sessions that
-- end with sign-out, bans and account deletion; the admin functions; rate windows.
begin;
select plan(59);

select tests.act_as_service();
select auth.gateway_sign_up('ria@example.test', 'correct horse', '{"username": "ria", "colour": "red"}') as s \gset
select (:'s'::jsonb -> 'user' ->> 'id') as ria \gset
select ok((:'s'::jsonb -> 'user' ->> 'email_confirmed_at') is not null, 'a password sign-up is confirmed at once (mailer_autoconfirm)');

-- Recovery: a code for a known address, nothing for an unknown one.
select auth.gateway_recover('Ria@Example.test', null, null, 60, 3600) as r \gset
select ok(:'r'::jsonb -> 'mail' ->> 'code' ~ '^[0-9]{6}$', 'recovery answers a six-digit code to mail');
select is(:'r'::jsonb -> 'mail' ->> 'email', 'ria@example.test', 'to the account''s address');
select is(auth.gateway_recover('nobody@example.test', null, null, 60, 3600), '{}'::jsonb,
  'an unknown address gets the same empty answer and no code');
select tests.clear_authentication();
select is((select count(*)::int from auth.one_time_codes where token_hash = :'r'::jsonb -> 'mail' ->> 'code'
           or token_hash like '%' || (:'r'::jsonb -> 'mail' ->> 'code') || '%'), 0, 'the code itself is stored nowhere');
select is((select token_hash from auth.one_time_codes where user_id = :'ria' and purpose = 'recovery' and used_at is null),
  encode(digest('ria@example.test' || (:'r'::jsonb -> 'mail' ->> 'code'), 'sha224'), 'hex'),
  'only its SHA-224 with the address, the platform''s token hash');
select tests.act_as_service();
select throws_ok($$select auth.gateway_recover('ria@example.test', null, null, 60, 3600)$$, 'P0001', 'over_email_send_rate_limit',
  'another recovery mail within the interval is refused');
select throws_ok($$select auth.gateway_recover('ria@example.test', 'short', 's256', 60, 3600)$$, 'P0001', 'validation_failed',
  'a PKCE challenge that is not 43 to 128 characters is refused');

-- Verification: the wrong code, the wrong type, then the right one once.
select throws_ok(format('select auth.gateway_verify(%L, %L, %L, null, false)', 'recovery', 'ria@example.test',
  case when :'r'::jsonb -> 'mail' ->> 'code' = '000000' then '000001' else '000000' end), 'P0001', 'otp_expired',
  'a wrong code is refused as the platform does (otp_expired)');
select throws_ok(format('select auth.gateway_verify(%L, %L, %L, null, false)', 'magiclink', 'ria@example.test',
  :'r'::jsonb -> 'mail' ->> 'code'), 'P0001', 'otp_expired', 'a recovery code does not pass as a magic link');
select auth.gateway_verify('recovery', 'RIA@example.test', :'r'::jsonb -> 'mail' ->> 'code', null, false) as v \gset
select is(:'v'::jsonb -> 'user' ->> 'id', :'ria', 'the right code signs the account in');
select is(:'v'::jsonb ->> 'method', 'recovery', 'and says how (for amr)');
select throws_ok(format('select auth.gateway_verify(%L, %L, %L, null, false)', 'recovery', 'ria@example.test',
  :'r'::jsonb -> 'mail' ->> 'code'), 'P0001', 'otp_expired', 'a code works once');

-- Expiry and supersession.
select tests.clear_authentication();
update auth.one_time_codes set created_at = now() - interval '2 minutes' where user_id = :'ria';
select tests.act_as_service();
select auth.gateway_otp('ria@example.test', true, null, null, null, 60, 3600) as m1 \gset
select tests.clear_authentication();
update auth.one_time_codes set created_at = now() - interval '2 minutes' where user_id = :'ria';
select tests.act_as_service();
select is(:'m1'::jsonb -> 'mail' ->> 'purpose', 'magiclink', 'an OTP for a confirmed account is a magic link');
select auth.gateway_otp('ria@example.test', true, null, null, null, 60, 3600) as m2 \gset
select throws_ok(format('select auth.gateway_verify(%L, null, null, %L, false)', 'magiclink', :'m1'::jsonb -> 'mail' ->> 'token_hash'),
  'P0001', 'otp_expired', 'a newer code supersedes the older');
select tests.clear_authentication();
update auth.one_time_codes set expires_at = now() - interval '1 second' where token_hash = :'m2'::jsonb -> 'mail' ->> 'token_hash';
select tests.act_as_service();
select throws_ok(format('select auth.gateway_verify(%L, null, null, %L, false)', 'email', :'m2'::jsonb -> 'mail' ->> 'token_hash'),
  'P0001', 'otp_expired', 'an expired code is refused');

-- OTP for a new address: an unconfirmed account, confirmed by its code; refused when sign-ups are not wanted.
select throws_ok($$select auth.gateway_otp('new@example.test', false, null, null, null, 60, 3600)$$, 'P0001', 'otp_disabled',
  'create_user false: no account is made');
select is((select count(*)::int from auth.users where email = 'new@example.test'), 0, '… and nothing was written');
select auth.gateway_otp('new@example.test', true, '{"username": "neo"}', null, null, 60, 3600) as n \gset
select is(:'n'::jsonb -> 'mail' ->> 'purpose', 'confirmation', 'a new address gets a confirmation');
select ok((select email_confirmed_at is null from auth.users where email = 'new@example.test'), 'the account waits unconfirmed');
select throws_ok($$select auth.gateway_start_session((select id from auth.users where email = 'new@example.test'))$$,
  'P0001', 'email_not_confirmed', 'and gets no session until then');
select lives_ok(format('select auth.gateway_verify(%L, %L, %L, null, false)', 'email', 'new@example.test', :'n'::jsonb -> 'mail' ->> 'code'),
  'type email takes the confirmation code');
select ok((select email_confirmed_at is not null from auth.users where email = 'new@example.test'), 'which confirms the address');

-- PKCE: a link answers an auth code; only its verifier exchanges it, once.
select tests.clear_authentication();
update auth.one_time_codes set created_at = now() - interval '2 minutes' where user_id = :'ria';
select tests.act_as_service();
select auth.gateway_recover('ria@example.test', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'S256', 60, 3600) as p \gset
select auth.gateway_verify('recovery', null, null, :'p'::jsonb -> 'mail' ->> 'token_hash', true) as pv \gset
select ok((:'pv'::jsonb ->> 'auth_code') is not null and (:'pv'::jsonb ->> 'refresh_token') is null,
  'a PKCE link answers an auth code, not tokens');
select throws_ok(format('select auth.gateway_pkce_grant(%L, %L)', :'pv'::jsonb ->> 'auth_code', 'not-the-verifier-at-all-not-the-verifier-at-all'),
  'P0001', 'bad_code_verifier', 'another verifier is refused');
select is(auth.gateway_pkce_grant(:'pv'::jsonb ->> 'auth_code', 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') -> 'user' ->> 'id', :'ria',
  'the verifier of the challenge (RFC 7636''s example) gets the session');
select throws_ok(format('select auth.gateway_pkce_grant(%L, %L)', :'pv'::jsonb ->> 'auth_code', 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'),
  'P0001', 'flow_state_not_found', 'once');

-- Updates: metadata merged, the same password refused, a new one taken, an old session reauthenticates.
select auth.gateway_update_user(:'ria', (:'s'::jsonb ->> 'session_id')::uuid, null, null, '{"colour": null, "skill": "expert"}',
  null, false, null, null, 60, 3600) -> 'user' -> 'user_metadata' as meta \gset
select is(:'meta'::jsonb, '{"username": "ria", "skill": "expert"}'::jsonb, 'data merges into user_metadata; a null removes its key');
select throws_ok(format('select auth.gateway_update_user(%L, %L, null, %L, null, null, false, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'correct horse'), 'P0001', 'same_password', 'the same password is refused');
select lives_ok(format('select auth.gateway_update_user(%L, %L, null, %L, null, null, true, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'battery staple'), 'a fresh session changes the password without a code');
select lives_ok($$select auth.gateway_password_grant('ria@example.test', 'battery staple')$$, 'the new password signs in');
select tests.clear_authentication();
update auth.refresh_sessions set created_at = now() - interval '2 days' where id = (:'s'::jsonb ->> 'session_id')::uuid;
update auth.one_time_codes set created_at = now() - interval '2 minutes' where user_id = :'ria';
select tests.act_as_service();
select throws_ok(format('select auth.gateway_update_user(%L, %L, null, %L, null, null, true, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'third password'), 'P0001', 'reauthentication_needed', 'a day-old session needs the code');
select auth.gateway_reauthenticate(:'ria', (:'s'::jsonb ->> 'session_id')::uuid, 60, 3600) -> 'mail' ->> 'code' as nonce \gset
select lives_ok(format('select auth.gateway_update_user(%L, %L, null, %L, null, %L, true, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'third password', :'nonce'), 'with the code it changes the password');
select throws_ok(format('select auth.gateway_update_user(%L, %L, null, %L, null, %L, true, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'fourth password', :'nonce'), 'P0001', 'reauthentication_not_valid', 'the code works once');

-- Email change: taken only once the new address's code comes back.
select throws_ok(format('select auth.gateway_update_user(%L, %L, %L, null, null, null, false, null, null, 60, 3600)', :'ria',
  :'s'::jsonb ->> 'session_id', 'new@example.test'), 'P0001', 'email_exists', 'another account''s address is refused');
select auth.gateway_update_user(:'ria', (:'s'::jsonb ->> 'session_id')::uuid, 'ria2@example.test', null, null, null, false,
  null, null, 60, 3600) as e \gset
select is(:'e'::jsonb -> 'user' ->> 'email', 'ria@example.test', 'the address stays until confirmed');
select is(:'e'::jsonb -> 'user' ->> 'new_email', 'ria2@example.test', 'the new one waits as new_email');
select lives_ok(format('select auth.gateway_verify(%L, %L, %L, null, false)', 'email_change', 'ria2@example.test',
  :'e'::jsonb -> 'mail' ->> 'code'), 'its code confirms it');
select is((select email from auth.users where id = :'ria'), 'ria2@example.test', 'and the address is changed');

-- Sessions: signed out, the token's session no longer reads /user.
select auth.gateway_password_grant('ria2@example.test', 'third password') as g \gset
select is(auth.gateway_current_user(:'ria', (:'g'::jsonb ->> 'session_id')::uuid) ->> 'id', :'ria', '/user reads a live session''s user');
select auth.gateway_sign_out(:'ria', (:'g'::jsonb ->> 'session_id')::uuid, 'local');
select throws_ok(format('select auth.gateway_current_user(%L, %L)', :'ria', :'g'::jsonb ->> 'session_id'), 'P0001', 'session_not_found',
  'after sign-out the access token''s session is gone (403 session_not_found)');

-- Admin: create, list, ban, delete.
select auth.gateway_admin_create_user('{"email": "Ada@example.test", "password": "ada password", "email_confirm": true,
  "user_metadata": {"username": "ada"}, "app_metadata": {"plan": "pro"}}') as ada \gset
select is(:'ada'::jsonb -> 'app_metadata' ->> 'plan', 'pro', 'admin create keeps app_metadata');
select throws_ok($$select auth.gateway_admin_create_user('{"email": "ada@example.test"}')$$, 'P0001', 'email_exists',
  'an address in use is refused');
select throws_ok($$select auth.gateway_admin_create_user('{"email": "bo@example.test", "ban_duration": "forever"}')$$, 'P0001',
  'validation_failed', 'a ban that is not a duration is refused');
select is((select count(*)::int from auth.users where email = 'bo@example.test'), 0, '… before anything is written');
select ok((auth.gateway_admin_list_users(1, 2) ->> 'total')::int >= 3 and jsonb_array_length(auth.gateway_admin_list_users(1, 2) -> 'users') = 2,
  'the list is paged and counts every user');
select auth.gateway_password_grant('ada@example.test', 'ada password') as ag \gset
select lives_ok(format('select auth.gateway_admin_update_user(%L, %L)', :'ada'::jsonb ->> 'id', '{"ban_duration": "24h"}'),
  'a ban is taken');
select throws_ok($$select auth.gateway_password_grant('ada@example.test', 'ada password')$$, 'P0001', 'user_banned',
  'a banned user does not sign in');
select throws_ok(format('select auth.gateway_refresh_grant(%L)', :'ag'::jsonb ->> 'refresh_token'), 'P0001', 'session_not_found',
  'and the ban ended the sessions it had');
select lives_ok(format('select auth.gateway_admin_delete_user(%L, true)', :'ada'::jsonb ->> 'id'), 'a soft delete');
select throws_ok($$select auth.gateway_password_grant('ada@example.test', 'ada password')$$, 'P0001', 'invalid_credentials',
  'leaves an account that signs in no more');
select lives_ok(format('select auth.gateway_admin_delete_user(%L, false)', :'ria'), 'a hard delete');
select is((select count(*)::int from auth.users where id = :'ria'), 0, 'removes the account');
select is((select count(*)::int from social.profiles where id = :'ria'), 0, 'and the person''s data');

-- generate_link hands out what a mail would carry.
select auth.gateway_admin_generate_link('invite', 'ivy@example.test', null, '{"username": "ivy"}', null, 3600) as l \gset
select is(:'l'::jsonb ->> 'verification_type', 'invite', 'an invite link');
select ok((select invited_at is not null from auth.users where email = 'ivy@example.test'), 'for an invited account');

-- Rate windows: the 21st hit in a window of 20 waits; a look does not count.
select is((select max(auth.gateway_rate_limit('failures:x', 20, 300, true)) from generate_series(1, 20)), 0, 'twenty hits pass');
select ok(auth.gateway_rate_limit('failures:x', 20, 300, false) between 1 and 300, 'a full window says how long to wait');
select ok(auth.gateway_rate_limit('failures:x', 20, 300, true) between 1 and 300, 'the 21st hit waits');

select tests.clear_authentication();
select * from finish();
rollback;
