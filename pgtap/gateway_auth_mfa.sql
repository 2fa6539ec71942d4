-- TOTP second factors (/auth/v1/factors): codes as RFC 6238 computes them, a
-- challenge answered once with a code never accepted before, the session raised
-- to aal2 (and its refresh keeping it), aal2 needed to add or remove factors once
-- one is verified, nobody else's factors reachable, and the aal claim there for
-- policies to ask for.
begin;
select plan(27);

-- RFC 6238 appendix B (SHA-1 seed "12345678901234567890"), the last six of its eight digits.
select is(auth.gateway_totp(convert_to('12345678901234567890', 'UTF8'), 59 / 30), '287082', 'RFC 6238 at 59 s');
select is(auth.gateway_totp(convert_to('12345678901234567890', 'UTF8'), 1111111109 / 30), '081804', 'RFC 6238 at 1111111109 s');
select is(auth.gateway_totp(convert_to('12345678901234567890', 'UTF8'), 2000000000 / 30), '279037', 'RFC 6238 at 2000000000 s');
-- RFC 4648's base32 test vectors, and back.
select is(auth.gateway_base32(convert_to('foobar', 'UTF8')), 'MZXW6YTBOI', 'base32 as RFC 4648 writes it');
select is(convert_from(auth.gateway_base32_decode('MZXW6YTBOI'), 'UTF8'), 'foobar', 'and read back');

select tests.act_as_service();
select auth.gateway_sign_up('mia@example.test', 'correct horse', '{}') as s \gset
select (:'s'::jsonb -> 'user' ->> 'id') as mia, (:'s'::jsonb ->> 'session_id') as mia_session \gset
select auth.gateway_mfa_enroll(:'mia', :'mia_session', 'Phone') as f \gset
select (:'f'::jsonb ->> 'id') as factor, (:'f'::jsonb ->> 'secret') as secret \gset
select ok(:'secret' ~ '^[A-Z2-7]{32}$', 'enrolling answers a 160-bit base32 secret');
select is((select status from auth.mfa_factors where id = :'factor'), 'unverified', 'the factor starts unverified');
select is(auth.gateway_current_user(:'mia', :'mia_session') -> 'factors' -> 0 ->> 'friendly_name', 'Phone',
  'the user lists it');
select ok(auth.gateway_current_user(:'mia', :'mia_session') -> 'factors' -> 0 -> 'secret' is null, 'without its secret');
select throws_ok(format('select auth.gateway_mfa_enroll(%L, %L, %L)', :'mia', :'mia_session', 'Phone'), 'P0001',
  'mfa_factor_name_conflict', 'a second factor of the same name is refused');

select auth.gateway_mfa_challenge(:'mia', :'mia_session', :'factor') as c \gset
select (:'c'::jsonb ->> 'id') as challenge \gset
select ok((:'c'::jsonb ->> 'expires_at')::bigint between extract(epoch from now()) + 290 and extract(epoch from now()) + 310,
  'a challenge lives five minutes');
select auth.gateway_totp(auth.gateway_base32_decode(:'secret'), floor(extract(epoch from now()) / 30)::bigint) as code \gset
select throws_ok(format('select auth.gateway_mfa_verify(%L, %L, %L, %L, %L)', :'mia', :'mia_session', :'factor', :'challenge',
  case when :'code' = '000000' then '000001' else '000000' end), 'P0001', 'mfa_verification_failed', 'a wrong code is refused');
select auth.gateway_mfa_verify(:'mia', :'mia_session', :'factor', :'challenge', :'code') as v \gset
select is(:'v'::jsonb ->> 'aal', 'aal2', 'the right code raises the session to aal2');
select is(:'v'::jsonb -> 'amr' -> 0 ->> 'method', 'totp', 'with totp among its methods');
select is(:'v'::jsonb ->> 'session_id', :'mia_session', 'in the same session');
select is((select status from auth.mfa_factors where id = :'factor'), 'verified', 'and the factor is verified');
select throws_ok(format('select auth.gateway_mfa_verify(%L, %L, %L, %L, %L)', :'mia', :'mia_session', :'factor', :'challenge', :'code'),
  'P0001', 'mfa_challenge_expired', 'a challenge is answered once');
select auth.gateway_mfa_challenge(:'mia', :'mia_session', :'factor') ->> 'id' as challenge2 \gset
select throws_ok(format('select auth.gateway_mfa_verify(%L, %L, %L, %L, %L)', :'mia', :'mia_session', :'factor', :'challenge2', :'code'),
  'P0001', 'mfa_verification_failed', 'a code once accepted does not pass again');
select is(auth.gateway_refresh_grant(:'v'::jsonb ->> 'refresh_token') ->> 'aal', 'aal2', 'refreshing keeps aal2');

-- Another session of Mia's is aal1: it may neither add nor remove factors.
select auth.gateway_password_grant('mia@example.test', 'correct horse') ->> 'session_id' as other_session \gset
select throws_ok(format('select auth.gateway_mfa_enroll(%L, %L, %L)', :'mia', :'other_session', 'Tablet'), 'P0001',
  'insufficient_aal', 'an aal1 session cannot enroll another factor');
select throws_ok(format('select auth.gateway_mfa_unenroll(%L, %L, %L)', :'mia', :'other_session', :'factor'), 'P0001',
  'insufficient_aal', 'nor remove a verified one');

-- Nobody else's factor: not found, whatever the session.
select auth.gateway_sign_up('ned@example.test', 'correct horse', '{}') as n \gset
select throws_ok(format('select auth.gateway_mfa_challenge(%L, %L, %L)', :'n'::jsonb -> 'user' ->> 'id', :'n'::jsonb ->> 'session_id',
  :'factor'), 'P0001', 'mfa_factor_not_found', 'another account''s factor is not found');
select throws_ok(format('select auth.gateway_mfa_challenge(%L, %L, %L)', :'mia', :'n'::jsonb ->> 'session_id', :'factor'),
  'P0001', 'session_not_found', 'nor reachable with another account''s session');

select is(auth.gateway_mfa_unenroll(:'mia', :'mia_session', :'factor') ->> 'id', :'factor', 'the aal2 session removes it');
select is((select count(*)::int from auth.mfa_factors where user_id = :'mia'), 0, 'and it is gone');
select tests.clear_authentication();

-- The access token's aal reaches policies as auth.jwt() ->> 'aal'.
create temporary table vault (secret text) on commit drop;
alter table vault enable row level security;
create policy vault_aal2 on vault for select to authenticated using (auth.jwt() ->> 'aal' = 'aal2');
insert into vault values ('only with a second factor');
grant select on vault to authenticated;
set local role authenticated;
select set_config('request.jwt.claims', json_build_object('sub', :'mia', 'role', 'authenticated', 'aal', 'aal1')::text, true) as claims \gset
select is((select count(*)::int from vault), 0, 'a policy asking for aal2 hides the row from an aal1 token');
select set_config('request.jwt.claims', json_build_object('sub', :'mia', 'role', 'authenticated', 'aal', 'aal2')::text, true) as claims \gset
select is((select count(*)::int from vault), 1, 'and shows it to an aal2 token');
reset role;

select * from finish();
rollback;
