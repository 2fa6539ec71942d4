-- Last-write-wins and sync (T47-T58, T62, T63, T65).
begin;
select plan(35);

select tests.create_user('alice@example.test', null, '{"username":"alice"}') as alice \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
create function tests.pull_all(p_table text, p_page int) returns setof jsonb language plpgsql as $$
declare r jsonb; s timestamptz; a uuid;
begin
  loop
    r := grids.sync_pull(p_table, s, a, p_page);
    return query select jsonb_array_elements(r -> 'rows');
    exit when r -> 'next' = 'null'::jsonb or r -> 'next' is null;
    s := (r -> 'next' ->> 'since')::timestamptz; a := (r -> 'next' ->> 'after_id')::uuid;
  end loop;
end $$;
grant execute on function tests.pull_all(text, int) to authenticated;
create function tests.push1(p_table text, p_row jsonb) returns jsonb language sql as $$
  select grids.sync_push(p_table, jsonb_build_array(p_row)) -> 0 $$;
grant execute on function tests.push1(text, jsonb) to authenticated;
create function tests.sq(p_ug uuid, p_pos int) returns uuid language sql immutable as $$
  select private.v5('square:' || p_ug::text || ':' || p_pos::text) $$;
grant execute on function tests.sq(uuid, int) to authenticated;

select tests.act_as(:'alice');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000007', 'title', 'Seven',
  'color', 'coral', 'theme', 'everyday', 'size', 7,
  'squares', (select jsonb_agg('Do thing number ' || i) from generate_series(1, 49) i))) is not null as saved;
select tests.push1('user_grids', '{"id":"b0000000-0000-4000-8000-000000000001","grid_id":"a0000000-0000-4000-8000-000000000007","audience":"friends","created_at":"2026-01-01","updated_at":"2026-01-01"}') ->> 'outcome' as o;
select tests.push1('user_grids', '{"id":"b0000000-0000-4000-8000-000000000002","grid_id":"a0000000-0000-4000-8000-000000000007","created_at":"2026-01-01","updated_at":"2026-01-01"}') ->> 'outcome' as o;

-- T50 LWW
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000001', 24), 'title', 'v1', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-02T10:00:00Z', 'device_id', 'aaaaaaaa-0000-4000-8000-000000000000')) ->> 'outcome',
  'applied', 'T50 an insert is applied');
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'title', 'v2',
  'updated_at', '2026-01-02T11:00:00Z', 'device_id', 'aaaaaaaa-0000-4000-8000-000000000000')) -> 'row' ->> 'title',
  'v2', 'T50 a newer updated_at replaces the row');
select (select server_updated_at from grids.moments where id = 'c0000000-0000-4000-8000-000000000001') as sua \gset
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'title', 'old',
  'updated_at', '2026-01-02T09:00:00Z', 'device_id', 'ffffffff-0000-4000-8000-000000000000')) ->> 'outcome',
  'ignored', 'T50 an older one is ignored');
select is((select server_updated_at::text || title from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'),
  :'sua' || 'v2', 'T50 ... with the stored row and server_updated_at unchanged');
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'title', 'v2',
  'updated_at', '2026-01-02T11:00:00Z', 'device_id', 'aaaaaaaa-0000-4000-8000-000000000000')) ->> 'outcome',
  'ignored', 'T50 an identical replay (equal K) changes nothing');
select is((select server_updated_at::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'),
  :'sua', 'T50 ... not even server_updated_at');

-- T51 equal updated_at: the larger device_id wins, both orders
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 24), 'title', 'start', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-02T00:00:00Z')) is not null as x;
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'small',
  'updated_at', '2026-01-03T00:00:00Z', 'device_id', '11111111-0000-4000-8000-000000000000')) is not null as x;
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'large',
  'updated_at', '2026-01-03T00:00:00Z', 'device_id', 'eeeeeeee-0000-4000-8000-000000000000')) is not null as x;
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-000000000002'), 'large',
  'T51 small then large device_id: large wins');
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'large2',
  'updated_at', '2026-01-04T00:00:00Z', 'device_id', 'eeeeeeee-0000-4000-8000-000000000000')) is not null as x;
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'small2',
  'updated_at', '2026-01-04T00:00:00Z', 'device_id', '11111111-0000-4000-8000-000000000000')) is not null as x;
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-000000000002'), 'large2',
  'T51 large then small device_id: large still wins');

-- T52 / T53 delete wins and is final; tombstones keep no text
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'deleted', true,
  'updated_at', '2026-01-01T00:00:00Z')) is not null as x;
select is((select deleted from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'), true,
  'T52 an older tombstone beats a newer edit');
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'title', 'back',
  'deleted', false, 'updated_at', '2027-01-01T00:00:00Z')) ->> 'outcome', 'ignored', 'T52 a write to a tombstone is ignored');
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000001', 24), 'title', 'again', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2027-01-02')) ->> 'outcome', 'ignored', 'T52 an upsert of a tombstoned id is ignored');
select is((select title || body || place || weather || with_whom from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'),
  '', 'T53 a tombstone has its free-text columns blanked');

-- T54 server_updated_at increases and cannot be set
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'x1',
  'updated_at', '2026-02-01T00:00:00Z', 'server_updated_at', '2000-01-01')) is not null as x;
select (select server_updated_at from grids.moments where id = 'c0000000-0000-4000-8000-000000000002') as s1 \gset
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'x2',
  'updated_at', '2026-02-02T00:00:00Z')) is not null as x;
select ok((select server_updated_at from grids.moments where id = 'c0000000-0000-4000-8000-000000000002') > :'s1'::timestamptz
  and :'s1'::timestamptz > '2020-01-01', 'T54 server_updated_at strictly increases and cannot be set by a client');

-- T55 one outcome per row
select is((select jsonb_agg(x ->> 'outcome') from jsonb_array_elements(grids.sync_push('profile_interests', jsonb_build_array(
  jsonb_build_object('id', private.v5('interest:' || :'alice' || ':cooking'), 'interest', 'cooking', 'created_at', '2026-01-01', 'updated_at', '2026-01-01'),
  jsonb_build_object('id', gen_random_uuid(), 'interest', 'nature', 'colour', 'red'),
  jsonb_build_object('id', gen_random_uuid(), 'interest', 'no-such-interest', 'created_at', '2026-01-01', 'updated_at', '2026-01-01'),
  jsonb_build_object('id', private.v5('interest:' || :'alice' || ':art'), 'interest', 'art', 'created_at', '2026-01-01', 'updated_at', '2026-01-01')))) x),
  '["applied", "error", "error", "applied"]'::jsonb, 'T55 sync_push returns one outcome per row; failing rows do not abort the others');
select is((grids.sync_push('profile_interests', jsonb_build_array(jsonb_build_object('id', gen_random_uuid(), 'colour', 'red'))) -> 0 ->> 'code'),
  'unknown_column', 'T55 a column outside the allow-list fails unknown_column');

-- T56 keyset paging over rows sharing one server_updated_at
select tests.clear_authentication();
set local session_replication_role = replica;
update grids.user_squares set server_updated_at = '2026-03-01' where user_grid_id = 'b0000000-0000-4000-8000-000000000001';
set local session_replication_role = origin;
select tests.act_as(:'alice');
select is((select count(*)::int || '/' || count(distinct x ->> 'id')::int from tests.pull_all('user_squares', 7) x),
  '98/98', 'T56 keyset paging neither skips nor repeats rows sharing a server_updated_at');
select ok(exists (select 1 from tests.pull_all('moments', 500) x where (x ->> 'deleted')::boolean),
  'T56 tombstones are pulled');
select tests.act_as(:'bob');
select is((select count(*)::int from tests.pull_all('moments', 500)), 0, 'T56 nothing RLS hides is pulled');
select tests.act_as(:'alice');

-- T57 children take user_id / group_id from their parent
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000003',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 17), 'title', 'kids', 'happened_on', '2026-01-02',
  'user_id', :'bob', 'group_id', gen_random_uuid(), 'hidden_at', '2026-01-01', 'merged_into', 'c0000000-0000-4000-8000-000000000002',
  'created_at', '2026-01-02', 'updated_at', '2026-01-02')) -> 'row' ->> 'user_id', :'alice',
  'T57 user_id comes from the parent whatever the payload says');
select is((select row(group_id, hidden_at, merged_into)::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000003'),
  '(,,)', 'T10/T57 pushed group_id, hidden_at and merged_into are ignored');

-- T58 C8: two solo moments on one square, both orders
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000011',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 23), 'title', 'older', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-05')) is not null as x;
select tests.push1('photos', jsonb_build_object('id', 'd0000000-0000-4000-8000-000000000011', 'moment_id', 'c0000000-0000-4000-8000-000000000011',
  'created_at', '2026-01-02', 'updated_at', '2026-01-05')) is not null as x;
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000012',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 23), 'title', 'newer', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-06')) ->> 'outcome', 'applied', 'T58 the larger K is applied');
select is((select row(deleted, merged_into)::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000011'),
  '(t,c0000000-0000-4000-8000-000000000012)', 'T58 the other becomes a tombstone merged into the winner');
select is((select deleted from grids.photos where id = 'd0000000-0000-4000-8000-000000000011'), true,
  'T58 the loser''s photos are tombstoned');
select tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000014',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 25), 'title', 'newer', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-06')) is not null as x;
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000013',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000002', 25), 'title', 'older', 'happened_on', '2026-01-02',
  'created_at', '2026-01-02', 'updated_at', '2026-01-05')) ->> 'outcome', 'corrected', 'T58 the smaller K arriving second is corrected');
select is((select row(deleted, merged_into)::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000013'),
  '(t,c0000000-0000-4000-8000-000000000014)', 'T58 both orders converge on the larger K');

-- T62 C12: a photo under a tombstoned moment is stored as a tombstone
select is(tests.push1('photos', jsonb_build_object('id', 'd0000000-0000-4000-8000-000000000001', 'moment_id', 'c0000000-0000-4000-8000-000000000001',
  'created_at', '2026-01-02', 'updated_at', '2026-01-05')) -> 'row' ->> 'deleted', 'true', 'T62 a photo under a tombstoned moment is a tombstone');

-- T63 C15 clock guard
select tests.freeze_time('2026-06-01T12:00:00Z');
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'future',
  'updated_at', '2026-06-02T12:00:00Z')) -> 'row' ->> 'updated_at', '2026-06-01T12:00:00+00:00',
  'T63 an updated_at one day ahead is clamped to the server clock');
select tests.unfreeze_time();

-- T47 R12
select throws_ok($$select grids.remove_from_shelf('b0000000-0000-4000-8000-000000000002')$$, 'P0001', 'grid_has_moments',
  'T47 removing a user_grid with a live moment is refused');
select is(tests.push1('user_grids', '{"id":"b0000000-0000-4000-8000-000000000002","deleted":true,"updated_at":"2026-04-01"}') ->> 'code',
  'grid_has_moments', 'T47 ... and so is its tombstone pushed by sync (C14)');
select tests.push1('user_grids', '{"id":"b0000000-0000-4000-8000-000000000003","grid_id":"a0000000-0000-4000-8000-000000000007","created_at":"2026-01-01","updated_at":"2026-01-01"}') is not null as x;
update grids.user_squares set freebie_at = '2026-01-02', updated_at = '2026-01-02' where id = tests.sq('b0000000-0000-4000-8000-000000000003', 24);
select is(grids.remove_from_shelf('b0000000-0000-4000-8000-000000000003'), '{"removed": true}'::jsonb,
  'T47 with only freebies it is removed');
select is((select count(*)::int from grids.user_squares where user_grid_id = 'b0000000-0000-4000-8000-000000000003' and not deleted), 0,
  'T47 ... and the removal cascades to its squares');

-- T48 V-A3
select is(tests.push1('moments', jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000021',
  'user_square_id', tests.sq('b0000000-0000-4000-8000-000000000001', 17), 'title', 'wide', 'happened_on', '2026-01-02',
  'audience', 'public', 'created_at', '2026-01-02', 'updated_at', '2026-01-02')) -> 'row' ->> 'audience', 'friends',
  'T48 a moment pushed wider than its grid is clamped');
select tests.push1('user_grids', '{"id":"b0000000-0000-4000-8000-000000000001","audience":"private","updated_at":"2026-04-01"}') is not null as x;
select is((select count(*)::int from grids.moments where user_grid_id = 'b0000000-0000-4000-8000-000000000001'
           and not deleted and audience <> 'private'), 0, 'T48 narrowing the grid narrows every wider moment');

-- T49 board_violations after a played board
select tests.clear_authentication();
select is((select count(*)::int from private.board_violations('b0000000-0000-4000-8000-000000000001')), 0,
  'T49 board_violations is empty after the pushes');

-- T65 save_grid while suspended
update social.profiles set sharing_suspended_at = now() where id = :'alice';
select tests.act_as(:'alice');
select results_eq($$select (r -> 'grid' ->> 'shared')::boolean, (r ->> 'sharing_suspended')::boolean
    from grids.save_grid(jsonb_build_object('id', gen_random_uuid(), 'title', 'Shared', 'color', 'coral', 'theme', 'everyday',
      'size', 7, 'shared', true, 'squares', (select jsonb_agg('Share me ' || i) from generate_series(1, 49) i))) r$$,
  $$values (false, true)$$, 'T65 save_grid shared=true while suspended stores shared=false and returns the flag');

select * from finish();
rollback;
