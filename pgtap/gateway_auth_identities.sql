-- The identities of /auth/v1: every account with an address has its email
-- identity, kept in step with it; grant_type=id_token finds the provider's
-- subject, links an address the provider vouches for, and otherwise makes a new
-- account; an unconfirmed password is dropped on linking; deletion takes the
-- identities and ends every session; only the service role may call any of it.
begin;
select plan(24);

select tests.act_as_service();
select auth.gateway_sign_up('ida@example.test', 'correct horse', '{"username": "ida"}') as s \gset
select (:'s'::jsonb -> 'user' ->> 'id') as ida \gset
select is(jsonb_array_length(:'s'::jsonb -> 'user' -> 'identities'), 1, 'a password sign-up has one identity');
select is(:'s'::jsonb -> 'user' -> 'identities' -> 0 ->> 'provider', 'email', 'its email identity');
select is(:'s'::jsonb -> 'user' -> 'identities' -> 0 ->> 'id', :'ida', 'named by the user id, as the platform does');
select is(:'s'::jsonb -> 'user' -> 'identities' -> 0 -> 'identity_data' ->> 'email', 'ida@example.test', 'carrying the address');
select is(:'s'::jsonb -> 'user' -> 'app_metadata' -> 'providers', '["email"]'::jsonb, 'app_metadata lists the provider');

-- Apple: a new subject makes an account, confirmed when Apple vouches for the address.
select auth.gateway_id_token_grant('apple', '001.apple', 'Joe@Relay.example', true,
  '{"iss": "https://appleid.apple.com", "full_name": "Joe"}') as a \gset
select (:'a'::jsonb -> 'user' ->> 'id') as joe \gset
select is(:'a'::jsonb ->> 'method', 'oauth', 'the session says how it began');
select is(:'a'::jsonb -> 'user' ->> 'email', 'joe@relay.example', 'the vouched address is the account''s');
select ok(:'a'::jsonb -> 'user' ->> 'email_confirmed_at' is not null, 'and confirmed');
select is(:'a'::jsonb -> 'user' -> 'app_metadata' ->> 'provider', 'apple', 'the first provider is the account''s own');
select is(:'a'::jsonb -> 'user' -> 'user_metadata' ->> 'full_name', 'Joe', 'the provider''s name is the user''s metadata');
select is((select array_agg(provider order by provider) from auth.identities where user_id = :'joe'),
  array['apple', 'email'], 'an Apple identity and an email identity');
select auth.gateway_id_token_grant('apple', '001.apple', null, false, '{}') as again \gset
select is(:'again'::jsonb -> 'user' ->> 'id', :'joe', 'the same subject, with no address this time, is the same account');
select is((select count(*)::int from auth.refresh_sessions where user_id = :'joe'), 2, 'each grant a session');

-- Google vouching for Ida's address links to her account.
select auth.gateway_id_token_grant('google', 'g-1', 'IDA@example.test', true, '{}') as g \gset
select is(:'g'::jsonb -> 'user' ->> 'id', :'ida', 'a vouched address links to its account');
select is(:'g'::jsonb -> 'user' -> 'app_metadata' -> 'providers', '["email", "google"]'::jsonb,
  'which now lists both providers, in the order they were linked');
select ok(exists (select 1 from auth.password_hashes where user_id = :'ida'), 'her confirmed password stays');

-- An address nobody confirmed: linking drops the password whoever set it.
insert into auth.users (email) values ('kit@example.test') returning id as kit \gset
insert into auth.password_hashes (user_id, hash) values (:'kit', public.crypt('squatter', public.gen_salt('bf', 4)));
select auth.gateway_id_token_grant('google', 'g-2', 'kit@example.test', true, '{}') as k \gset
select is(:'k'::jsonb -> 'user' ->> 'id', :'kit', 'an unconfirmed account of the address is linked');
select ok(not exists (select 1 from auth.password_hashes where user_id = :'kit'), 'and the unproved password dropped');

-- An address the provider does not vouch for is not linked, and not taken.
select auth.gateway_id_token_grant('google', 'g-3', 'ida@example.test', false, '{}') as u \gset
select isnt(:'u'::jsonb -> 'user' ->> 'id', :'ida', 'an unvouched address makes a new account');
select is(:'u'::jsonb -> 'user' ->> 'email', '', 'without the address');

select throws_ok($$select auth.gateway_id_token_grant('facebook', 'f-1', null, false, '{}')$$, 'P0001', 'provider_disabled',
  'an unknown provider is refused');

-- Deletion takes the identities and ends every session at once.
select lives_ok(format('select auth.gateway_admin_delete_user(%L, false)', :'joe'), 'a hard delete');
select is((select count(*)::int from auth.identities where user_id = :'joe' or provider_id = '001.apple'), 0,
  'leaves no identity');
select tests.clear_authentication();

-- Only the service role.
set local role authenticated;
select throws_ok($$select auth.gateway_id_token_grant('apple', 'x', null, false, '{}')$$, '42501', null,
  'a signed-in user cannot call the grant');
reset role;

select * from finish();
rollback;
