-- The hosted platform's auth contract: roles, auth.uid()/role()/jwt(), default privileges.
begin;
select plan(24);

-- Roles
select has_role('anon');
select has_role('authenticated');
select has_role('service_role');
select is((select rolbypassrls from pg_roles where rolname = 'service_role'), true, 'service_role bypasses RLS');
select is((select rolbypassrls from pg_roles where rolname = 'authenticated'), false, 'authenticated does not bypass RLS');
select is((select rolbypassrls from pg_roles where rolname = 'anon'), false, 'anon does not bypass RLS');
select is((select rolcanlogin from pg_roles where rolname = 'authenticated'), false, 'the API roles cannot log in');

-- auth.uid()
select is(auth.uid(), null, 'auth.uid() is null with no claims');
select set_config('request.jwt.claims', '{"sub":"11111111-1111-1111-1111-111111111111","role":"authenticated"}', true);
select is(auth.uid(), '11111111-1111-1111-1111-111111111111'::uuid, 'auth.uid() reads sub from request.jwt.claims');
select is(auth.role(), 'authenticated', 'auth.role() reads role from request.jwt.claims');
select is(auth.jwt() ->> 'sub', '11111111-1111-1111-1111-111111111111', 'auth.jwt() returns the claims');
select set_config('request.jwt.claim.sub', '22222222-2222-2222-2222-222222222222', true);
select is(auth.uid(), '22222222-2222-2222-2222-222222222222'::uuid, 'request.jwt.claim.sub takes precedence, as on the platform');
select set_config('request.jwt.claims', '', true);
select set_config('request.jwt.claim.sub', '', true);
select is(auth.uid(), null, 'empty settings mean no user');

-- auth.users is private
select is(
  (select relrowsecurity from pg_class where oid = 'auth.users'::regclass), true, 'auth.users has row level security');
select ok(not has_table_privilege('anon', 'auth.users', 'select'), 'anon cannot read auth.users');
select ok(not has_table_privilege('authenticated', 'auth.users', 'select'), 'authenticated cannot read auth.users');
select ok(has_table_privilege('service_role', 'auth.users', 'select'), 'service_role can read auth.users');

-- Acting as a user through the test helpers
select tests.act_as(tests.create_user('ann@example.test'));
select is(current_user::text, 'authenticated', 'act_as switches the role');
select ok(auth.uid() is not null, 'act_as sets the user id');
select throws_ok('select count(*) from auth.users', '42501', null, 'a user cannot read auth.users');
select tests.act_as_anon();
select is(auth.uid(), null, 'anon has no user id');
select tests.clear_authentication();

-- Functions created after migration 0001 are not executable by PUBLIC
create function public.summit_probe() returns int language sql as 'select 1';
select ok(not has_function_privilege('anon', 'public.summit_probe()', 'execute'),
  'a new function is not executable by anon until granted');
select ok(has_function_privilege('service_role', 'public.summit_probe()', 'execute'),
  'service_role may execute new functions');

-- The server clock freezes only in test databases
select tests.freeze_time('2030-01-01 00:00:00+00');
select is(summit.now(), '2030-01-01 00:00:00+00'::timestamptz, 'summit.now() follows a frozen clock');

select * from finish();
rollback;
