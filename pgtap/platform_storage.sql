-- Platform, privileges and storage (T01-T06, T16, T18-T21; T22, T23 and the
-- storage half of T05 are in storage_objects.sql).
begin;
select plan(27);

select tests.create_user('pia@example.test', null, '{"username":"pia"}') as p \gset
select tests.create_user('quin@example.test', null, '{"username":"quin"}') as q \gset
select tests.create_user('rex@example.test', null, '{"username":"rex"}') as r \gset
insert into social.friendships values (least(:'p'::uuid, :'q'::uuid), greatest(:'p'::uuid, :'q'::uuid));

-- T01 / T02
select set_config('request.jwt.claims', json_build_object('sub', :'p', 'role', 'authenticated')::text, true);
select is(auth.uid(), :'p'::uuid, 'T01 auth.uid() reads sub from request.jwt.claims');
select set_config('request.jwt.claims', '', true);
select set_config('request.jwt.claim.sub', :'q', true);
select is(auth.uid(), :'q'::uuid, 'T01 ... falls back to request.jwt.claim.sub');
select set_config('request.jwt.claim.sub', '', true);
select is(auth.uid(), null, 'T01 ... and is null when neither is set');
select is((select string_agg(rolname::text || '=' || rolbypassrls::text, ',' order by rolname::text collate "C")
           from pg_roles where rolname::text = any (array['anon', 'authenticated', 'service_role'])),
  'anon=false,authenticated=false,service_role=true', 'T02 the three roles exist; only service_role bypasses RLS');

-- T03 anon reads reference tables only
select tests.act_as_anon();
select ok((select count(*) from grids.themes) > 0 and (select count(*) from grids.grid_sizes) = 4, 'T03 anon reads reference tables');
select throws_ok('select * from grids.moments', '42501', null, 'T03 anon cannot read moments');
select throws_ok('select * from social.profiles', '42501', null, 'T03 anon cannot read profiles');
select tests.clear_authentication();

-- T04 anon executes peek_friend_code and no other RPC
select is((select array_agg(p.proname::text order by p.proname) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('social', 'grids') and has_function_privilege('anon', p.oid, 'execute')),
  array['peek_friend_code'], 'T04 anon may execute peek_friend_code and no other RPC');
-- T05 no DELETE privilege for authenticated on app tables
select is((select count(*)::int from information_schema.table_privileges
           where grantee in ('authenticated', 'anon') and privilege_type = 'DELETE' and table_schema in ('social', 'grids')), 0,
  'T05 authenticated holds no DELETE privilege in social or grids');
-- T06 private helpers: PUBLIC has no EXECUTE
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('private', 'social', 'grids')
             and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a where a.grantee = 0 and a.privilege_type = 'EXECUTE')), 0,
  'T06 PUBLIC has no EXECUTE on any private, social or grids function');
-- every table has RLS on
select is((select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('social', 'grids', 'private') and c.relkind = 'r' and not c.relrowsecurity), 0,
  'every table in social, grids and private has RLS enabled');
-- every SECURITY DEFINER function pins search_path
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname in ('private', 'social', 'grids') and p.prosecdef
             and not coalesce(p.proconfig::text like '%search_path%', false)), 0,
  'every SECURITY DEFINER function sets search_path');

-- T16 / T18 / T19-T23
select tests.act_as(:'p');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Pics',
  'color', 'rose', 'theme', 'making', 'size', 7, 'squares', (select jsonb_agg('Make a thing ' || i) from generate_series(1, 49) i))) is not null as s;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'friends', now(), now());
insert into grids.moments (id, user_square_id, title, happened_on, audience, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Pic', '2026-01-01', 'friends', now(), now());
insert into storage.objects (bucket_id, name, owner, content) values ('photos', :'p' || '/d0000000-0000-4000-8000-000000000001.webp', :'p', 'x');
select is((select count(*)::int from storage.objects), 1, 'T19 the owner reads by path prefix before the row syncs');
insert into grids.photos (id, moment_id, created_at, updated_at) values ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', now(), now());
select throws_ok(format($$insert into storage.objects (bucket_id, name, content) values ('photos', '%s/d0000000-0000-4000-8000-000000000002.webp', 'x')$$, :'q'),
  '42501', null, 'T21 uploading under another user''s prefix fails');
select throws_ok($$insert into storage.objects (bucket_id, name, content) values ('photos', 'groups/b0000000-0000-4000-8000-000000000001/d0000000-0000-4000-8000-000000000002.webp', 'x')$$,
  '42501', null, 'T21 uploading under groups/ fails');
select tests.act_as(:'q');
select is((select count(*)::int from storage.objects), 1, 'T19 a friend reads a Friends moment''s file');
select is((select count(*)::int from grids.grids where id = 'a0000000-0000-4000-8000-000000000001'), 0, 'T16 a made grid is not visible to others through RLS');
select tests.act_as(:'r');
select is((select count(*)::int from storage.objects), 0, 'T19 a stranger gets no row (404, not 403)');
select tests.act_as(:'p');
update grids.user_grids set audience = 'private', updated_at = now() + interval '1 minute' where id = 'b0000000-0000-4000-8000-000000000001';
select tests.act_as(:'q');
select is((select count(*)::int from storage.objects), 0, 'T20 the object is unreadable once its grid is narrowed to Private');
select tests.act_as_service();
select ok((select count(*) from grids.moments) > 0 and (select count(*) from social.friendships) > 0, 'T18 service_role sees every row');

-- Buckets are the backend's: the gateway serves their verbs to the service role
-- only, and the database holds the same line.
select tests.act_as(:'p');
select throws_ok($$insert into storage.buckets (id, name) values ('mine', 'mine')$$, '42501', null,
  'a user cannot create a bucket');
select throws_ok($$update storage.buckets set public = true where id = 'avatars'$$, '42501', null, 'a user cannot change a bucket');
select throws_ok($$delete from storage.buckets where id = 'avatars'$$, '42501', null, 'a user cannot delete a bucket');
select tests.act_as_anon();
select throws_ok($$update storage.buckets set public = true where id = 'photos'$$, '42501', null, 'anon cannot change a bucket');
select tests.clear_authentication();
select is((select string_agg(id || '=' || public::text, ',' order by id) from storage.buckets), 'avatars=false,photos=false,powdermeet-avatars=true,resort-packs=false',
  'neither a user nor anon changes or deletes a bucket');
select tests.act_as_service();
update storage.buckets set file_size_limit = 1 where id = 'photos';
select is((select file_size_limit from storage.buckets where id = 'photos'), 1::bigint, 'the service role changes a bucket');
select ok((select updated_at is not null from storage.buckets where id = 'photos'), 'buckets say when they changed (updated_at)');

select * from finish();
rollback;
