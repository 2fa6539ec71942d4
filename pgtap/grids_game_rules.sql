-- Game rules R1-R14 (T37-T49).
begin;
select plan(29);

select tests.create_user('alice@example.test', null, '{"username":"alice"}') as alice \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
select tests.act_as(:'alice');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000007', 'title', 'Seven',
  'color', 'coral', 'theme', 'everyday', 'size', 7,
  'squares', (select jsonb_agg('Do thing number ' || i) from generate_series(1, 49) i))) is not null as saved7;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000008', 'title', 'Eight',
  'color', 'sky', 'theme', 'outdoors', 'size', 8,
  'squares', (select jsonb_agg('Try eight ' || i) from generate_series(1, 64) i))) is not null as saved8;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000009', 'title', 'Nine',
  'color', 'sage', 'theme', 'food', 'size', 9,
  'squares', (select jsonb_agg('Taste nine ' || i) from generate_series(1, 81) i))) is not null as saved9;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000010', 'title', 'Ten',
  'color', 'plum', 'theme', 'calm', 'size', 10,
  'squares', (select jsonb_agg('Ten things ' || i) from generate_series(1, 100) i))) is not null as saved10;

insert into grids.user_grids (id, grid_id, created_at, updated_at) values
  ('b0000000-0000-4000-8000-000000000007', 'a0000000-0000-4000-8000-000000000007', '2026-01-01', '2026-01-01'),
  ('b0000000-0000-4000-8000-000000000008', 'a0000000-0000-4000-8000-000000000008', '2026-01-01', '2026-01-01'),
  ('b0000000-0000-4000-8000-000000000009', 'a0000000-0000-4000-8000-000000000009', '2026-01-01', '2026-01-01'),
  ('b0000000-0000-4000-8000-000000000010', 'a0000000-0000-4000-8000-000000000010', '2026-01-01', '2026-01-01');

-- T37 size² squares, only the centre revealed
select results_eq(
  $$select side, count(*)::int, array_agg(position order by position) filter (where revealed_at is not null)
    from grids.user_squares s join grids.user_grids ug on ug.id = s.user_grid_id
    join grids.grids g on g.id = ug.grid_id join lateral (select g.size as side) x on true
    group by side order by side$$,
  $$values (7::smallint, 49, array[24]::smallint[]), (8::smallint, 64, array[27,28,35,36]::smallint[]),
           (9::smallint, 81, array[40]::smallint[]), (10::smallint, 100, array[44,45,54,55]::smallint[])$$,
  'T37 a new user_grid gets size² squares with only the centre revealed');

-- T38 deterministic ids; a phone push of the same rows merges
select is((select count(*)::int from grids.user_squares
           where id = private.v5('square:' || user_grid_id::text || ':' || position::text)), 294,
  'T38 server-created square ids are v5 square:{user_grid_id}:{position}');
select is((grids.sync_push('user_squares', jsonb_build_array(jsonb_build_object(
  'id', private.v5('square:b0000000-0000-4000-8000-000000000007:24'),
  'user_grid_id', 'b0000000-0000-4000-8000-000000000007', 'position', 24,
  'revealed_at', '2026-01-01', 'updated_at', '2026-01-01', 'created_at', '2026-01-01'))) -> 0 ->> 'outcome'),
  'ignored', 'T38 a phone push of the same square merges (nothing changes)');
select is((select count(*)::int from grids.user_squares where user_grid_id = 'b0000000-0000-4000-8000-000000000007'), 49,
  'T38 still 49 squares after the merge');

-- T39 a moment on 24 reveals 17, 23, 25, 31
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000007:24'),
        'First', '2026-01-02', '2026-01-02', '2026-01-02');
select is((select array_agg(position order by position) from grids.user_squares
           where user_grid_id = 'b0000000-0000-4000-8000-000000000007' and revealed_at is not null),
  array[17,23,24,25,31]::smallint[], 'T39 a live moment on 24 reveals its four neighbours');
select is((select state from grids.user_square_states where id = private.v5('square:b0000000-0000-4000-8000-000000000007:24')),
  'done', 'T39 the square is done');
update grids.moments set deleted = true, updated_at = '2026-01-03' where id = 'c0000000-0000-4000-8000-000000000001';
select is((select state from grids.user_square_states where id = private.v5('square:b0000000-0000-4000-8000-000000000007:24')),
  'revealed', 'T39 deleting the moment returns the square to revealed (R5)');
select is((select count(*)::int from grids.user_squares
           where user_grid_id = 'b0000000-0000-4000-8000-000000000007' and revealed_at is not null), 5,
  'T39 the neighbours stay revealed');
-- corner: only two neighbours
select is(private.grid_neighbours(7, 0), array[1, 7]::smallint[], 'T39 a corner has only its 2 neighbours');

-- T40 revealed_at never goes back to null; the earliest wins
update grids.user_squares set revealed_at = null, updated_at = '2026-02-01'
where id = private.v5('square:b0000000-0000-4000-8000-000000000007:24');
select isnt((select revealed_at from grids.user_squares where id = private.v5('square:b0000000-0000-4000-8000-000000000007:24')),
  null, 'T40 a pushed revealed_at = null over a set value is ignored');
update grids.user_squares set revealed_at = '2025-12-01', updated_at = '2025-01-01'
where id = private.v5('square:b0000000-0000-4000-8000-000000000007:17');
select is((select revealed_at from grids.user_squares where id = private.v5('square:b0000000-0000-4000-8000-000000000007:17')),
  '2025-12-01'::timestamptz, 'T40 the earlier of two values wins, whatever K says (C4)');

-- T41 freebies: allowance 1 on 7x7, hidden squares refused, neighbours revealed
update grids.user_squares set freebie_at = '2026-01-05', updated_at = '2026-01-05'
where id = private.v5('square:b0000000-0000-4000-8000-000000000007:17');
select is((select array_agg(position order by position) from grids.user_squares
           where user_grid_id = 'b0000000-0000-4000-8000-000000000007' and revealed_at is not null),
  array[10,16,17,18,23,24,25,31]::smallint[], 'T41 a freebie reveals its neighbours');
update grids.user_squares set freebie_at = '2026-01-06', updated_at = '2026-01-06'
where id = private.v5('square:b0000000-0000-4000-8000-000000000007:23');
select is((select freebie_at from grids.user_squares where id = private.v5('square:b0000000-0000-4000-8000-000000000007:23')),
  null, 'T41 a freebie beyond the allowance (1 on 7x7) is dropped');
select tests.clear_authentication();
select ok(exists (select 1 from private.sync_corrections where kind = 'freebie_over_allowance'), 'T41 ... and logged');
select tests.act_as(:'alice');
update grids.user_squares set freebie_at = '2026-01-06', updated_at = '2026-01-06'
where id = private.v5('square:b0000000-0000-4000-8000-000000000010:0');
select is((select freebie_at from grids.user_squares where id = private.v5('square:b0000000-0000-4000-8000-000000000010:0')),
  null, 'T41 a freebie on a hidden square is dropped');
select is((select freebies from grids.grid_sizes where side = 7), 1::smallint, 'T41 allowance on 7x7 is 1');
select results_eq('select freebies from grids.grid_sizes order by side', 'values (1::smallint),(2::smallint),(4::smallint),(6::smallint)',
  'T41 allowances 1/2/4/6');

-- T42 freebies never refill
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000002', private.v5('square:b0000000-0000-4000-8000-000000000007:17'),
        'On the freebie', '2026-01-07', '2026-01-07', '2026-01-07');
update grids.moments set deleted = true, updated_at = '2026-01-08' where id = 'c0000000-0000-4000-8000-000000000002';
select is((select state from grids.user_square_states where id = private.v5('square:b0000000-0000-4000-8000-000000000007:17')),
  'done', 'T42 a freebie square stays done after a moment is added and deleted');
update grids.user_squares set freebie_at = '2026-01-09', updated_at = '2026-01-09'
where id = private.v5('square:b0000000-0000-4000-8000-000000000007:25');
select is((select count(*)::int from grids.user_squares where user_grid_id = 'b0000000-0000-4000-8000-000000000007'
           and freebie_at is not null), 1, 'T42 and it is still counted: no refill');

-- T43 a moment for a hidden square is kept, the square revealed, logged
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000003', private.v5('square:b0000000-0000-4000-8000-000000000007:0'),
        'Corner', '2026-01-10', '2026-01-10', '2026-01-10');
select tests.clear_authentication();
select ok((select not deleted from grids.moments where id = 'c0000000-0000-4000-8000-000000000003')
      and (select revealed_at is not null from grids.user_squares where id = private.v5('square:b0000000-0000-4000-8000-000000000007:0'))
      and exists (select 1 from private.sync_corrections where row_id = 'c0000000-0000-4000-8000-000000000003' and kind = 'revealed_hidden_square'),
  'T43 R4: kept, square revealed, correction logged');
select tests.act_as(:'alice');

-- T44 grid_progress
select tests.clear_authentication();
insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, happened_on, created_at, updated_at)
select gen_random_uuid(), s.id, s.user_grid_id, s.user_id, 'Done', '2026-01-11', '2026-01-11', '2026-01-11'
from grids.user_squares s where s.user_grid_id = 'b0000000-0000-4000-8000-000000000007' and s.freebie_at is null
  and not exists (select 1 from grids.moments m where m.user_square_id = s.id and not m.deleted);
select is((select row(done, total, complete)::text from private.grid_progress('b0000000-0000-4000-8000-000000000007')),
  '(49,49,t)', 'T44 complete when every square is done');
select tests.act_as(:'alice');
update grids.moments set deleted = true, updated_at = '2026-01-12' where id = 'c0000000-0000-4000-8000-000000000003';
select tests.clear_authentication();
select is((select complete from private.grid_progress('b0000000-0000-4000-8000-000000000007')), false,
  'T44 incomplete again after one moment is deleted');

-- T45 squares are fixed
select tests.clear_authentication();
select throws_ok($$update grids.grid_squares set prompt = 'x' where grid_id = 'a0000000-0000-4000-8000-000000000007' and position = 0$$,
  'P0001', 'squares_fixed', 'T45 update on grid_squares raises squares_fixed');
select throws_ok($$delete from grids.grid_squares where grid_id = 'a0000000-0000-4000-8000-000000000007'$$,
  'P0001', 'squares_fixed', 'T45 delete on grid_squares raises squares_fixed');
select tests.act_as(:'alice');
select is((grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000007', 'title', 'Seven again',
  'color', 'coral', 'theme', 'everyday', 'size', 7, 'updated_at', '2030-01-01',
  'squares', (select jsonb_agg('Changed ' || i) from generate_series(1, 49) i))) -> 'squares' ->> 0),
  'Do thing number 1', 'T45 save_grid with changed squares returns the stored ones');

-- T46 save_grid validation
select throws_ok($$select grids.save_grid(jsonb_build_object('id', gen_random_uuid(), 'title', 'Bad', 'color', 'coral',
  'theme', 'everyday', 'size', 7, 'squares', (select jsonb_agg('P ' || i) from generate_series(1, 48) i)))$$,
  'P0001', 'squares_count', 'T46 a wrong square count is rejected');
select throws_ok($$select grids.save_grid(jsonb_build_object('id', gen_random_uuid(), 'title', 'Bad', 'color', 'coral',
  'theme', 'everyday', 'size', 7, 'squares', (select jsonb_agg(case when i = 3 then repeat('x', 81) else 'P ' || i end) from generate_series(1, 49) i)))$$,
  'P0001', 'prompt_invalid', 'T46 an 81-character prompt is rejected');
select throws_ok($$select grids.save_grid(jsonb_build_object('id', gen_random_uuid(), 'title', 'Bad', 'color', 'coral',
  'theme', 'everyday', 'size', 7, 'squares', (select jsonb_agg(case when i = 3 then 'p 1' else 'P ' || i end) from generate_series(1, 49) i)))$$,
  'P0001', 'prompts_duplicate', 'T46 duplicate prompts (case-insensitive) are rejected');
select is((grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000008', 'title', 'Eight',
  'color', 'sky', 'theme', 'outdoors', 'size', 9, 'updated_at', '2030-01-01')) -> 'grid' ->> 'size'), '8',
  'T46 size cannot change');

select * from finish();
rollback;
