-- RLS performance guidance: policies use (select auth.uid()), policy columns
-- are indexed, and a user's own moments are read by index scan at 100k rows.
begin;
select plan(3);

select tests.create_user('perf@example.test', null, '{"username":"perf"}') as u \gset
set local session_replication_role = replica;
insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, happened_on, created_at, updated_at)
select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(),
       case when i % 1000 = 0 then :'u'::uuid else gen_random_uuid() end, 'm', '2026-01-01', now(), now()
from generate_series(1, 100000) i;
set local session_replication_role = origin;
analyze grids.moments;

select tests.act_as(:'u');
create function pg_temp.plan_of(q text) returns text language plpgsql as $$
declare r record; out text := ''; begin
  for r in execute 'explain ' || q loop out := out || r."QUERY PLAN" || E'\n'; end loop; return out; end $$;
select ok(pg_temp.plan_of('select id, title from grids.moments where user_id = (select auth.uid())') ~ 'Index Scan|Bitmap Index Scan|Index Only Scan' or diag(pg_temp.plan_of('select id, title from grids.moments where user_id = (select auth.uid())')) is null,
  'at 100k rows a user''s own moments are read by index scan under RLS');
select is((select count(*)::int from grids.moments), 100, 'the user sees exactly their 100 moments');
select tests.clear_authentication();
select is((select count(*)::int from pg_policies where schemaname in ('social', 'grids', 'storage')
           and (coalesce(qual, '') || coalesce(with_check, '')) ~ 'auth\.uid\(\)'
           and (coalesce(qual, '') || coalesce(with_check, '')) !~ 'SELECT auth\.uid\(\)'), 0,
  'every policy calls auth.uid() as (select auth.uid())');

select * from finish();
rollback;
