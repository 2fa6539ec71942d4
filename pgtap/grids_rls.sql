-- Direct table access under RLS (T03, T08, T09, T10, T16, T18): own rows only,
-- shelves need a usable grid, templates are seen by their users, server-owned
-- columns never come from a client, anon reads only reference tables and the
-- service role reads everything.
begin;
select plan(16);

select tests.create_user('amy@example.test', null, '{"username":"amy"}') as a \gset
select tests.create_user('bea@example.test', null, '{"username":"bea"}') as b \gset
select tests.create_user('cal@example.test', null, '{"username":"cal"}') as c \gset
insert into social.friendships values (least(:'a'::uuid, :'b'::uuid), greatest(:'a'::uuid, :'b'::uuid));

-- bea: a shared grid (in the Atlas), an unshared one, a Public board with a Public moment
select tests.act_as(:'b');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-0000000000b1', 'title', 'Bea shares',
  'color', 'amber', 'theme', 'everyday', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Notice thing ' || i) from generate_series(1, 49) i))) is not null as s1;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-0000000000b2', 'title', 'Bea keeps',
  'color', 'plum', 'theme', 'calm', 'size', 7,
  'squares', (select jsonb_agg('Rest a while ' || i) from generate_series(1, 49) i))) is not null as s2;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at) values
  ('b0000000-0000-4000-8000-0000000000b1', 'a0000000-0000-4000-8000-0000000000b1', 'public', now(), now());
insert into grids.moments (id, user_square_id, title, happened_on, audience, created_at, updated_at) values
  ('c0000000-0000-4000-8000-0000000000b1', private.v5('square:b0000000-0000-4000-8000-0000000000b1:24'), 'Bea public', '2026-01-01', 'public', now(), now());

-- T08 amy cannot read bea's board even though it is Public, nor write into it
select tests.act_as(:'a');
select is((select count(*)::int from grids.user_grids) + (select count(*)::int from grids.user_squares)
          + (select count(*)::int from grids.moments), 0,
  'T08 A selects nothing of B''s solo board, its squares or its moments, even Public');
select throws_ok(format($$insert into grids.user_grids (id, user_id, grid_id, created_at, updated_at)
  values (gen_random_uuid(), %L, 'a0000000-0000-4000-8000-0000000000b1', now(), now())$$, :'b'),
  '42501', null, 'T08 inserting a user_grid with B''s user_id is denied (no column grant)');
select is(grids.sync_push('user_grids', jsonb_build_array(jsonb_build_object('id', 'b0000000-0000-4000-8000-0000000000a9',
  'user_id', :'b', 'grid_id', 'a0000000-0000-4000-8000-0000000000b1', 'created_at', now(), 'updated_at', now()))) -> 0 -> 'row' ->> 'user_id',
  :'a', 'T08 a pushed user_id of B is ignored: the row is A''s');
update grids.moments set title = 'amy was here', updated_at = now() + interval '1 hour' where id = 'c0000000-0000-4000-8000-0000000000b1';
select is(grids.sync_push('moments', jsonb_build_array(jsonb_build_object('id', 'c0000000-0000-4000-8000-0000000000b1',
  'title', 'amy again', 'updated_at', now() + interval '2 hours'))) -> 0 ->> 'code', 'not_allowed',
  'T08 pushing an update of B''s moment answers not_allowed');
select tests.clear_authentication();
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-0000000000b1'), 'Bea public',
  'T08 ... and B''s moment is unchanged (0 rows updated)');
select is((select count(*)::int from grids.user_grids where user_id = :'b'), 1, 'T08 B still has exactly her own board');

-- T09 R11: someone else's unshared made grid cannot go on a shelf; an Atlas grid can
select tests.act_as(:'a');
select throws_ok($$insert into grids.user_grids (id, grid_id, created_at, updated_at)
  values ('b0000000-0000-4000-8000-0000000000a1', 'a0000000-0000-4000-8000-0000000000b2', now(), now())$$,
  '42501', null, 'T09 a user_grid using another person''s unshared made grid fails');
select lives_ok($$insert into grids.user_grids (id, grid_id, created_at, updated_at)
  values ('b0000000-0000-4000-8000-0000000000a2', 'a0000000-0000-4000-8000-0000000000b1', now(), now())$$,
  'T09 a user_grid using an Atlas grid succeeds');

-- T16 a made grid is visible through RLS to its owner and to people who have it on a shelf
select is((select count(*)::int from grids.grids where id = 'a0000000-0000-4000-8000-0000000000b1'), 1,
  'T16 someone who has it on the shelf sees the made grid');
select is((select count(*)::int from grids.grids where id = 'a0000000-0000-4000-8000-0000000000b2'), 0,
  'T16 ... but not the maker''s other grids');
select tests.act_as(:'b');
select is((select count(*)::int from grids.grids where kind = 'made'), 2, 'T16 the owner sees both of her grids');
select tests.act_as(:'c');
select is((select count(*)::int from grids.grids where kind = 'made'), 0,
  'T16 others see neither through RLS, shared or not (the Atlas goes through RPCs)');

-- T10 author_id and server columns are never taken from a push
select tests.act_as(:'b');
select grids.start_group('b0000000-0000-4000-8000-0000000000b1') is not null as grouped;
select tests.clear_authentication();
insert into grids.group_members (group_id, user_id) values ('b0000000-0000-4000-8000-0000000000b1', :'a');
select tests.act_as(:'a');
select is((select row(r ->> 'author_id', r ->> 'merged_into', (r ->> 'server_updated_at')::timestamptz > '2020-01-01')::text
           from (select grids.sync_push('moment_entries', jsonb_build_array(jsonb_build_object(
             'id', 'e0000000-0000-4000-8000-0000000000a1', 'moment_id', 'c0000000-0000-4000-8000-0000000000b1',
             'author_id', :'b', 'merged_into', 'e0000000-0000-4000-8000-0000000000a1', 'server_updated_at', '2001-01-01',
             'body', 'mine', 'audience', 'group', 'created_at', now(), 'updated_at', now()))) -> 0 -> 'row' as r) x),
  format('(%s,,t)', :'a'), 'T10 pushed author_id, merged_into and server_updated_at are ignored');

-- T03 anon: every table outside the reference data is refused or empty
select tests.act_as_anon();
create function pg_temp.anon_reads(p_table regclass) returns bigint language plpgsql as $$
declare n bigint;
begin
  execute format('select count(*) from %s', p_table) into n;
  return n;
exception when insufficient_privilege then
  return 0;
end $$;
select is((select coalesce(string_agg(c.oid::regclass::text, ', '), '') from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('social', 'grids', 'private', 'storage') and c.relkind in ('r', 'v')
             and c.oid::regclass::text not in ('grids.grid_sizes', 'grids.themes', 'grids.interests', 'grids.interest_themes',
                                               'grids.prompts', 'social.reserved_usernames', 'storage.buckets')
             and pg_temp.anon_reads(c.oid) > 0), '',
  'T03 anon reads no row of any non-reference table');

-- T18 the service role sees every row of every table
select tests.clear_authentication();
create temp table row_counts as
  select c.oid::regclass as t, (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %s', c.oid::regclass), false, true, '')))[1]::text::bigint as n
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname in ('social', 'grids', 'private', 'storage') and c.relkind = 'r';
grant select on row_counts to service_role;
select tests.act_as_service();
create function pg_temp.service_reads(p_table regclass) returns bigint language plpgsql as $$
declare n bigint;
begin
  execute format('select count(*) from %s', p_table) into n;
  return n;
end $$;
select is((select coalesce(string_agg(t::text, ', '), '') from row_counts where pg_temp.service_reads(t) <> n), '',
  'T18 service_role sees every row of every table');
select ok((select count(*) from row_counts where n > 0) >= 10, 'T18 ... checked on tables that hold rows');

select * from finish();
rollback;
