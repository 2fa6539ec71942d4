-- Group grids: conversion, invites, membership RLS, conflicts, blocks, leaving
-- (T11-T14, T17, T36, T59-T61, T64, T66-T71).
begin;
select plan(35);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as a \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as b \gset
select tests.create_user('cat@example.test', null, '{"username":"cat"}') as c \gset
select tests.create_user('dan@example.test', null, '{"username":"dan"}') as d \gset
insert into social.friendships values (least(:'a'::uuid, :'b'::uuid), greatest(:'a'::uuid, :'b'::uuid)),
  (least(:'a'::uuid, :'c'::uuid), greatest(:'a'::uuid, :'c'::uuid));
insert into social.blocks (blocker_id, blocked_id) values (:'d', :'a');
create function tests.sq(p_pos int) returns uuid language sql immutable as $$
  select private.v5('square:b0000000-0000-4000-8000-000000000001:' || p_pos::text) $$;
grant execute on function tests.sq(int) to authenticated;

select tests.act_as(:'a');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Together',
  'color', 'teal', 'theme', 'people', 'size', 7,
  'squares', (select jsonb_agg('Share thing ' || i) from generate_series(1, 49) i))) is not null as saved;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'friends', '2026-01-01', '2026-01-01');
insert into grids.moments (id, user_square_id, title, body, happened_on, audience, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000001', tests.sq(24), 'Solo start', 'my words', '2026-01-02', 'friends', '2026-01-02', '2026-01-02');
insert into grids.photos (id, moment_id, created_at, updated_at)
values ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', '2026-01-02', '2026-01-02');
-- T14 entries need a group moment
select throws_ok($$insert into grids.moment_entries (id, moment_id, body, created_at, updated_at)
  values (gen_random_uuid(), 'c0000000-0000-4000-8000-000000000001', 'x', now(), now())$$, 'P0001', 'not_a_group_moment',
  'T14 an entry on a solo moment fails not_a_group_moment');

-- T64 start_group
select is(grids.start_group('b0000000-0000-4000-8000-000000000001') ->> 'group_id', 'b0000000-0000-4000-8000-000000000001', 'start_group returns the group id');
select is((select count(*)::int from grids.user_squares where user_grid_id = 'b0000000-0000-4000-8000-000000000001'
           and group_id is distinct from 'b0000000-0000-4000-8000-000000000001'), 0, 'T64 every square gets group_id');
select is((select row(group_id, audience, body)::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'),
  '(b0000000-0000-4000-8000-000000000001,private,"")', 'T64 moments get group_id, Private, empty body');
select is((select row(id, body, audience)::text from grids.moment_entries where moment_id = 'c0000000-0000-4000-8000-000000000001'),
  format('(%s,"my words",private)', private.v5('entry:c0000000-0000-4000-8000-000000000001:' || :'a')), 'T64 the body moved to a Private v5 entry');
select is((select audience::text from grids.photos where id = 'd0000000-0000-4000-8000-000000000001'), 'private', 'T64 photos become Private');
select ok((select updated_at > '2026-01-02' and device_id = private.nil_uuid() from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'),
  'T64 updated_at exceeds every earlier value (C7)');
select is((grids.sync_push('moments', jsonb_build_array(jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001',
  'title', 'late solo edit', 'body', 'late words', 'audience', 'public', 'updated_at', now() + interval '5 minutes'))) -> 0 -> 'row' ->> 'body'), '',
  'T64/T71 a later solo-shaped push is transformed: body stays empty');
select is((select body from grids.moment_entries where moment_id = 'c0000000-0000-4000-8000-000000000001' and author_id = :'a'),
  E'my words\n\nlate words', 'T71 the pushed body lands in the pusher''s entry');

-- T66 invites
select is(grids.invite_to_group('b0000000-0000-4000-8000-000000000001', array[:'b'::uuid, :'d'::uuid, :'c'::uuid]),
  jsonb_build_array(jsonb_build_object('user_id', :'b', 'result', 'invited'), jsonb_build_object('user_id', :'d', 'result', 'invited'),
                    jsonb_build_object('user_id', :'c', 'result', 'invited')), 'T66 invites: friends invited; a blocker answers invited');
select tests.act_as(:'d');
select is((select count(*)::int from grids.my_group_invites()), 0, 'T66 ... but never shows in their my_group_invites');
select tests.create_user('eve@example.test', null, '{"username":"eve"}') as e \gset
select tests.act_as(:'a');
select is(grids.invite_to_group('b0000000-0000-4000-8000-000000000001', array[:'e'::uuid]) -> 0 ->> 'result', 'not_friends', 'T66 invite needs friendship');

-- T67 accept
select tests.act_as(:'b');
select is((grids.respond_group_invite((select invite_id from grids.my_group_invites()), true)) ->> 'group_id',
  'b0000000-0000-4000-8000-000000000001', 'T67 accepting adds membership');
select is((select count(*)::int from grids.my_groups()), 1, 'T67 my_groups lists it');
select is(jsonb_array_length(grids.sync_pull_group('b0000000-0000-4000-8000-000000000001', 'user_squares') -> 'rows'), 49,
  'T67 sync_pull_group returns all its rows');
select tests.act_as(:'c');
select grids.respond_group_invite((select invite_id from grids.my_group_invites()), true) is not null as joined;

-- T11 / T12 / T13 membership RLS
select tests.act_as(:'b');
select is((select count(*)::int from grids.moments where group_id = 'b0000000-0000-4000-8000-000000000001'), 1, 'T11 members select group moments');
insert into grids.moment_entries (id, moment_id, body, audience, created_at, updated_at)
values ('e0000000-0000-4000-8000-0000000000b1', 'c0000000-0000-4000-8000-000000000001', 'ben shares', 'group', now(), now());
select tests.act_as(:'c');
select is((select array_agg(body order by body) from grids.moment_entries), array['ben shares'],
  'T12 a member sees others'' Group entries, not their Private ones');
update grids.moment_entries set body = 'hacked' where id = 'e0000000-0000-4000-8000-0000000000b1';
update grids.moments set place = 'the park' where id = 'c0000000-0000-4000-8000-000000000001';
select tests.clear_authentication();
select is((select body from grids.moment_entries where id = 'e0000000-0000-4000-8000-0000000000b1') || '/' ||
          (select place from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'), 'ben shares/the park',
  'T13 a member cannot update another''s entry but can update the shared fields');
select tests.act_as(:'b');
select is((select x ->> 'place' from jsonb_array_elements(grids.sync_pull_group('b0000000-0000-4000-8000-000000000001', 'moments') -> 'rows') x
           where x ->> 'id' = 'c0000000-0000-4000-8000-000000000001'), 'the park',
  'T32 members receive a group moment''s place through sync');
select tests.clear_authentication();
update social.profiles set avatar_path = :'b' || '/f0000000-0000-4000-8000-0000000000b1.webp' where id = :'b';
select tests.act_as(:'c');
select is(grids.profile_view(:'b') ->> 'avatar_path', :'b' || '/f0000000-0000-4000-8000-0000000000b1.webp',
  'T34 a co-member who is not a friend sees the avatar in profile_view');

-- T70 Group→Private writes an unshare; T17 visibility of unshares
select tests.act_as(:'b');
update grids.moment_entries set audience = 'private', updated_at = now() + interval '1 second' where id = 'e0000000-0000-4000-8000-0000000000b1';
select tests.act_as(:'c');
select is((select count(*)::int from grids.group_unshares where object_id = 'e0000000-0000-4000-8000-0000000000b1'), 1,
  'T70/T17 going Private writes a group_unshares row members see');
select tests.act_as(:'b');
select is((select count(*)::int from grids.group_unshares), 0, 'T17 the author does not get their own unshare');
update grids.moment_entries set audience = 'group', updated_at = now() + interval '2 seconds' where id = 'e0000000-0000-4000-8000-0000000000b1';

-- T36 blocked pair in one group
select tests.act_as(:'c');
select social.block_user(:'b');
select is((select count(*)::int from grids.moment_entries where author_id = :'b'), 0, 'T36 each other''s entries disappear');
select is((select count(*)::int from grids.moments where group_id = 'b0000000-0000-4000-8000-000000000001'), 1, 'T36 the board stays visible');
select is((select count(*)::int from grids.group_unshares where for_user_id = :'c' and reason = 'blocked'), 1, 'T36 targeted group_unshares rows exist');

-- T59 C9 two group moments on one square: the first on the server is kept
select tests.act_as(:'b');
insert into grids.moments (id, user_square_id, title, body, happened_on, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000002', tests.sq(17), 'first', '', '2026-01-03', now(), now());
select tests.act_as(:'a');
select is((grids.sync_push('moments', jsonb_build_array(jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000003',
  'user_square_id', tests.sq(17), 'title', 'second', 'body', 'ann words', 'happened_on', '2026-01-03',
  'created_at', '2030-01-01', 'updated_at', '2030-01-01'))) -> 0 -> 'row' ->> 'merged_into'), 'c0000000-0000-4000-8000-000000000002',
  'T59 the later group moment is a tombstone merged into the first');
select is(grids.sync_push('moment_entries', jsonb_build_array(jsonb_build_object('id', 'e0000000-0000-4000-8000-0000000000a3',
  'moment_id', 'c0000000-0000-4000-8000-000000000003', 'body', 'more', 'audience', 'group', 'created_at', now(), 'updated_at', now()))) -> 0 -> 'row' ->> 'deleted',
  'true', 'T59/T60 an entry pushed onto the loser follows to the kept moment and joins the author''s entry');
select is((select body || '|' || audience from grids.moment_entries where moment_id = 'c0000000-0000-4000-8000-000000000002' and author_id = :'a' and not deleted),
  E'ann words\n\nmore|private', 'T60 bodies joined with a blank line, narrower audience kept');

-- T61 C10 deleting a group moment others wrote in: rescue
select tests.act_as(:'b');
update grids.moments set deleted = true, updated_at = now() + interval '1 minute' where id = 'c0000000-0000-4000-8000-000000000002';
select tests.clear_authentication();
select is((select row(m.id, m.deleted)::text from grids.moments m where m.user_square_id = tests.sq(17) and not m.deleted),
  format('(%s,f)', private.v5('rescue:c0000000-0000-4000-8000-000000000002')), 'T61 a v5 rescue moment holds the square');
select is((select moment_id from grids.moment_entries where author_id = :'a' and not deleted and body like 'ann words%'),
  private.v5('rescue:c0000000-0000-4000-8000-000000000002'), 'T61 the other member''s entry moved onto it');
select is((select r.title from grids.moments r where r.id = private.v5('rescue:c0000000-0000-4000-8000-000000000002')),
  'first', 'T61 the rescue moment keeps the title the deleted moment was logged with');
select is(coalesce(current_setting('summit.rescue_fields', true), ''), '', 'T61 the details handed to the rescue are taken');

-- T68 / T69 leaving
select tests.act_as(:'b');
select is(grids.leave_group('b0000000-0000-4000-8000-000000000001') ->> 'group_deleted', 'false', 'T68 leaving keeps the group');
select is((select count(*)::int from grids.moment_entries), 0, 'T68 the leaver loses read access, even to their own entries');
select tests.act_as(:'c');
select grids.leave_group('b0000000-0000-4000-8000-000000000001') is not null as left_c;
select tests.act_as(:'a');
select grids.leave_group('b0000000-0000-4000-8000-000000000001') is not null as left_a;
select tests.clear_authentication();
select ok(not exists (select 1 from grids.user_grids where id = 'b0000000-0000-4000-8000-000000000001')
      and exists (select 1 from private.storage_deletions where name like :'a' || '/d0000000-0000-4000-8000-000000000001%')
      and not exists (select 1 from grids.group_invites where status = 'pending'),
  'T69 the last member out hard-deletes the grid, queues its objects, cancels pending invites');

select * from finish();
rollback;
