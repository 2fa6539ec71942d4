-- A batch of moments pushed together: each row answers as it would alone, rows
-- that could touch one another go row by row, and a failing row leaves the rest.
begin;
select plan(21);

select tests.create_user('alice@example.test', null, '{"username":"alice"}') as alice \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
create function tests.sq(p_ug uuid, p_pos int) returns uuid language sql immutable as $$
  select private.v5('square:' || p_ug::text || ':' || p_pos::text) $$;
grant execute on function tests.sq(uuid, int) to authenticated;
-- A new moment on a square of a board, as a phone sends it.
create function tests.moment(p_id text, p_ug text, p_pos int, p_extra jsonb default '{}') returns jsonb
  language sql immutable as $$
  select jsonb_build_object('id', p_id, 'user_square_id', tests.sq(p_ug::uuid, p_pos), 'title', 'Moment ' || p_id,
    'happened_on', '2026-01-02', 'created_at', '2026-01-02T09:00:00Z', 'updated_at', '2026-01-02T09:00:00Z',
    'device_id', 'aaaaaaaa-0000-4000-8000-000000000000') || p_extra $$;
grant execute on function tests.moment(text, text, int, jsonb) to authenticated;
-- Outcome and code of each answer, in order.
create function tests.answers(p_answers jsonb) returns text language sql immutable as $$
  select string_agg(coalesce(a ->> 'outcome', '?') || coalesce(':' || (a ->> 'code'), ''), ' ' order by n)
  from jsonb_array_elements(p_answers) with ordinality x(a, n) $$;
grant execute on function tests.answers(jsonb) to authenticated;

select tests.act_as(:'bob');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-0000000000b0', 'title', 'Bob''s',
  'color', 'coral', 'theme', 'everyday', 'size', 7,
  'squares', (select jsonb_agg('Bob thing ' || i) from generate_series(1, 49) i))) is not null as saved;
select grids.sync_push('user_grids', '[{"id":"b0000000-0000-4000-8000-0000000000b0","grid_id":"a0000000-0000-4000-8000-0000000000b0","created_at":"2026-01-01","updated_at":"2026-01-01"}]') is not null as x;
select grids.sync_push('moments', jsonb_build_array(tests.moment('c0000000-0000-4000-8000-0000000000b0',
  'b0000000-0000-4000-8000-0000000000b0', 24))) is not null as x;

select tests.act_as(:'alice');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000007', 'title', 'Seven',
  'color', 'coral', 'theme', 'everyday', 'size', 7,
  'squares', (select jsonb_agg('Do thing number ' || i) from generate_series(1, 49) i))) is not null as saved;
select grids.sync_push('user_grids', '[{"id":"b0000000-0000-4000-8000-000000000001","grid_id":"a0000000-0000-4000-8000-000000000007","created_at":"2026-01-01","updated_at":"2026-01-01"},
  {"id":"b0000000-0000-4000-8000-000000000002","grid_id":"a0000000-0000-4000-8000-000000000007","created_at":"2026-01-01","updated_at":"2026-01-01"}]') is not null as x;

-- rows on distinct squares are written together, each answering as it would alone
select isnt(private.sync_push_moments_together(jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001', 24),
    tests.moment('c0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001', 25),
    tests.moment('c0000000-0000-4000-8000-000000000003', 'b0000000-0000-4000-8000-000000000001', 0),
    tests.moment('c0000000-0000-4000-8000-000000000004', 'b0000000-0000-4000-8000-000000000001', 31,
                 '{"audience": "friends"}')),
  private.sync_columns('moments') || private.server_columns() || array['id'], private.sync_insert_defaults('moments')),
  null, 'a batch of moments on distinct squares is written together');
select is((select tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000005', 'b0000000-0000-4000-8000-000000000001', 32),
    tests.moment('c0000000-0000-4000-8000-000000000006', 'b0000000-0000-4000-8000-000000000001', 48),
    tests.moment('c0000000-0000-4000-8000-000000000007', 'b0000000-0000-4000-8000-000000000001', 38,
                 '{"audience": "friends"}'),
    jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000001', 'title', 'older', 'updated_at', '2026-01-01T00:00:00Z'),
    jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000002', 'title', 'newer', 'updated_at', '2026-01-03T00:00:00Z'))))),
  'applied corrected:revealed_hidden_square corrected:audience_clamped ignored applied',
  'each row of a batch gets its own answer: applied, corrected with its code, ignored');
select is((select string_agg(title, ',' order by id) from grids.moments where id in
    ('c0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002')), 'Moment c0000000-0000-4000-8000-000000000001,newer',
  '... the older update leaves its row, the newer one replaces it');
select is((select revealed_at is not null from grids.user_squares where id = tests.sq('b0000000-0000-4000-8000-000000000001', 25)),
  true, 'a moment reveals its neighbours ...');
select tests.clear_authentication();
select is((select count(*)::int from private.sync_corrections where row_id = 'c0000000-0000-4000-8000-000000000002'),
  0, '... before the next row: the moment on a neighbour of the first needed no correction');
select is((select count(*)::int from private.sync_corrections where row_id = 'c0000000-0000-4000-8000-000000000006'),
  1, 'a correction is logged once');
select tests.act_as(:'alice');
select is((select audience::text from grids.moments where id = 'c0000000-0000-4000-8000-000000000007'), 'private',
  'a clamped audience is stored clamped');

-- two rows on one square go row by row: the later (larger K) is kept
select is(private.sync_push_moments_together(jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000011', 'b0000000-0000-4000-8000-000000000001', 17),
    tests.moment('c0000000-0000-4000-8000-000000000012', 'b0000000-0000-4000-8000-000000000001', 17,
                 '{"updated_at": "2026-01-02T11:00:00Z"}')),
  private.sync_columns('moments') || private.server_columns() || array['id'], private.sync_insert_defaults('moments')),
  null, 'two rows on one square are not written together ...');
select is((select count(*)::int from grids.moments where id in
    ('c0000000-0000-4000-8000-000000000011', 'c0000000-0000-4000-8000-000000000012')), 0, '... and that attempt writes nothing');
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000011', 'b0000000-0000-4000-8000-000000000001', 17),
    tests.moment('c0000000-0000-4000-8000-000000000012', 'b0000000-0000-4000-8000-000000000001', 17,
                 '{"updated_at": "2026-01-02T11:00:00Z"}')))),
  'applied applied', 'row by row both apply in turn ...');
select is((select id::text from grids.moments where user_square_id = tests.sq('b0000000-0000-4000-8000-000000000001', 17)
           and not deleted), 'c0000000-0000-4000-8000-000000000012', '... and the later one is the live moment');

-- a repeated id goes row by row too: the second is an update of the first
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000013', 'b0000000-0000-4000-8000-000000000001', 26),
    jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000013', 'title', 'retitled', 'updated_at', '2026-01-02T12:00:00Z')))),
  'applied applied', 'a batch naming one id twice applies both in turn');
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-000000000013'), 'retitled', '... the second last');
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000014', 'b0000000-0000-4000-8000-000000000001', 18, '{"audience": "friends"}'),
    jsonb_build_object('id', 'c0000000-0000-4000-8000-000000000014', 'title', 'retitled', 'updated_at', '2026-01-02T12:00:00Z')))),
  'corrected:audience_clamped applied', 'row by row, each row answers with its own corrections only');

-- someone else's row in a batch: that row fails, the others are applied
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000021', 'b0000000-0000-4000-8000-000000000001', 23),
    jsonb_build_object('id', 'c0000000-0000-4000-8000-0000000000b0', 'title', 'taken', 'updated_at', '2026-02-01T00:00:00Z')))),
  'applied error:not_allowed', 'another person''s moment in a batch is refused, the rest applied');
select tests.act_as(:'bob');
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-0000000000b0'),
  'Moment c0000000-0000-4000-8000-0000000000b0', '... and their moment is unchanged');
select tests.act_as(:'alice');

-- a row that fails mid-batch leaves the rows before and after it
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000031', 'b0000000-0000-4000-8000-000000000001', 30),
    tests.moment('c0000000-0000-4000-8000-000000000032', 'b0000000-0000-4000-8000-000000000009', 3),
    tests.moment('c0000000-0000-4000-8000-000000000033', 'b0000000-0000-4000-8000-000000000001', 16)))),
  'applied error:parent_missing applied', 'a row whose square is missing fails alone');
select is((select count(*)::int from grids.moments where id in
    ('c0000000-0000-4000-8000-000000000031', 'c0000000-0000-4000-8000-000000000033')), 2, '... the others are stored once each');

-- group words go to each row's own entry, though every AFTER trigger fires at the statement's end
select grids.start_group('b0000000-0000-4000-8000-000000000002') is not null as started;
select is(tests.answers(grids.sync_push('moments', jsonb_build_array(
    tests.moment('c0000000-0000-4000-8000-000000000041', 'b0000000-0000-4000-8000-000000000002', 24, '{"body": "first words"}'),
    tests.moment('c0000000-0000-4000-8000-000000000042', 'b0000000-0000-4000-8000-000000000002', 25, '{"body": "second words"}')))),
  'corrected:body_moved_to_entry corrected:body_moved_to_entry', 'group moments pushed together move their words to entries');
select is((select string_agg(m.id || '=' || e.body, ' ' order by m.id) from grids.moments m
           join grids.moment_entries e on e.moment_id = m.id and e.author_id = :'alice'
           where m.id in ('c0000000-0000-4000-8000-000000000041', 'c0000000-0000-4000-8000-000000000042')),
  'c0000000-0000-4000-8000-000000000041=first words c0000000-0000-4000-8000-000000000042=second words',
  '... each moment''s words in its own entry');
select is(current_setting('summit.pending_body', true), '', '... and nothing is left handed on');

select * from finish();
rollback;
