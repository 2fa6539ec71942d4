-- A Group entry narrowed to Private by the server (the C11 join keeps the
-- narrower audience) is unshared like one the author made Private (P5).
begin;
select plan(5);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as ben \gset
insert into social.friendships values (least(:'ann'::uuid, :'ben'::uuid), greatest(:'ann'::uuid, :'ben'::uuid));

select tests.act_as(:'ann');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', private.v5('grid:starter:small-joys'), now(), now());
select grids.start_group('b0000000-0000-4000-8000-000000000001') is not null as grouped;
select tests.clear_authentication();
insert into grids.group_members (group_id, user_id) values ('b0000000-0000-4000-8000-000000000001', :'ben');

-- ben's phone 1 writes a Group entry on ann's moment
select tests.act_as(:'ann');
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Picnic',
   '2026-01-01', now(), now());
select tests.act_as(:'ben');
select (grids.sync_push('moment_entries', jsonb_build_array(jsonb_build_object('id', 'e0000000-0000-4000-8000-000000000001',
  'moment_id', 'c0000000-0000-4000-8000-000000000001', 'body', 'From phone one.', 'audience', 'group',
  'created_at', '2026-01-01', 'updated_at', '2026-01-01T10:00:00Z'))) -> 0 ->> 'outcome') = 'applied' as pushed;
select tests.act_as(:'ann');
select is((select count(*)::int from grids.moment_entries where id = 'e0000000-0000-4000-8000-000000000001'), 1,
  'ann sees ben''s Group entry');

-- ben's phone 2, offline, wrote a Private entry on the same moment: it is joined onto the first
select tests.act_as(:'ben');
select is(grids.sync_push('moment_entries', jsonb_build_array(jsonb_build_object('id', 'e0000000-0000-4000-8000-000000000002',
  'moment_id', 'c0000000-0000-4000-8000-000000000001', 'body', 'From phone two.', 'audience', 'private',
  'created_at', '2026-01-01', 'updated_at', '2026-01-01T11:00:00Z'))) -> 0 -> 'row' ->> 'merged_into',
  'e0000000-0000-4000-8000-000000000001', 'C11: the second entry is joined onto the first');
select is((select audience::text || ' / ' || body from grids.moment_entries where id = 'e0000000-0000-4000-8000-000000000001'),
  'private / From phone one.' || E'\n\n' || 'From phone two.', 'the joined entry keeps the narrower audience');

select tests.act_as(:'ann');
select is((select count(*)::int from grids.moment_entries where id = 'e0000000-0000-4000-8000-000000000001'), 0,
  'ann no longer reads it');
select ok(exists (select 1 from jsonb_array_elements(grids.sync_pull('group_unshares') -> 'rows') r
                  where r ->> 'object_id' = 'e0000000-0000-4000-8000-000000000001' and r ->> 'object_type' = 'entry'),
  'P5: ann''s phones pull a group_unshares row for it, so they drop their copy');

select * from finish();
rollback;
