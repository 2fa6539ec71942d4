-- The AirStrive face: the core's grids and social names in one schema, adding
-- no rule of its own. Every view runs as the caller over exactly one core
-- relation, with the core's privileges; every function runs as the caller and
-- is callable by exactly whom the core's is; and a stranger, a friend and the
-- owner see and change through the face what they do through the core.
begin;
select plan(15);

-- ------------------------------------------------------------ shape

select is((select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'airstrive' and c.relkind = 'v'
             and not coalesce('security_invoker=true' = any(c.reloptions), false)), 0,
  'every face view runs as the caller (security_invoker)');
select is((select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'airstrive' and c.relkind <> 'v'), 0, 'the face holds no table of its own');
select is((select array_agg(c.relname::text order by c.relname) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname = 'airstrive' and c.relkind = 'v'),
          (select array_agg(distinct c.relname::text order by c.relname::text) from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('grids', 'social') and c.relkind in ('r', 'v')
             and (has_table_privilege('authenticated', c.oid, 'select') or has_table_privilege('anon', c.oid, 'select'))),
  'a view for each core relation a client may read, and no other');
select is((select count(*)::int from pg_class v join pg_namespace n on n.oid = v.relnamespace
           join lateral (select c.oid from pg_class c join pg_namespace cn on cn.oid = c.relnamespace
                         where cn.nspname in ('grids', 'social') and c.relname = v.relname
                         order by cn.nspname = 'grids' desc limit 1) core on true
           where n.nspname = 'airstrive' and v.relkind = 'v'
             and exists (select 1 from unnest(array['anon', 'authenticated']) r, unnest(array['select', 'insert', 'update', 'delete']) p
                         where has_table_privilege(r, v.oid, p) and not has_table_privilege(r, core.oid, p))), 0,
  'no face view grants a client anything its core relation does not');
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'airstrive' and p.prosecdef), 0, 'no face function is SECURITY DEFINER: the core''s checks run as the caller');
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           join lateral (select c.oid from pg_proc c join pg_namespace cn on cn.oid = c.pronamespace
                         where cn.nspname in ('grids', 'social') and c.proname = p.proname
                           and pg_get_function_identity_arguments(c.oid) = pg_get_function_identity_arguments(p.oid)
                         order by cn.nspname = 'grids' desc limit 1) core on true
           where n.nspname = 'airstrive'
             and (has_function_privilege('anon', p.oid, 'execute') <> has_function_privilege('anon', core.oid, 'execute')
                  or has_function_privilege('authenticated', p.oid, 'execute') <> has_function_privilege('authenticated', core.oid, 'execute'))), 0,
  'each face function is callable by exactly whom its core function is');
select ok((select count(*) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'airstrive' and p.proname in ('my_groups', 'save_grid', 'sync_push', 'sync_pull', 'delete_account')) = 5,
  'the seed''s functions are there by their names');

-- ------------------------------------------------------------ behaviour

-- What a statement answers, or the error it raises: for comparing the face with the core.
create function pg_temp.outcome(p_statement text) returns text
  language plpgsql as $$
declare
  v_answer text;
begin
  execute p_statement into v_answer;
  return coalesce(v_answer, 'null');
exception when others then
  -- The message names the relation's kind (view or table); the code is what a client acts on.
  return 'error ' || sqlstate;
end
$$;
grant execute on function pg_temp.outcome(text) to authenticated;

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as ben \gset
select tests.create_user('cy@example.test', null, '{"username":"cy"}') as cy \gset
select tests.act_as(:'ann');
select airstrive.send_friend_request(:'ben');
select tests.act_as(:'ben');
select airstrive.send_friend_request(:'ann');

select tests.act_as(:'ann');
insert into airstrive.user_grids (id, grid_id, audience, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', private.v5('grid:starter:small-joys'), 'friends', now(), now());
insert into airstrive.moments (id, user_square_id, title, happened_on, audience, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Tea', '2026-01-01',
   'friends', '2026-01-01', '2026-01-01');
select is((select count(*)::int from airstrive.moments), (select count(*)::int from grids.moments),
  'the owner sees through the face what she sees through the core');

select tests.act_as(:'cy');
select is((select count(*)::int from airstrive.moments), 0, 'a stranger sees no moment through the face');
select is(pg_temp.outcome($$select airstrive.person_moment('c0000000-0000-4000-8000-000000000001')::text$$),
          pg_temp.outcome($$select grids.person_moment('c0000000-0000-4000-8000-000000000001')::text$$),
  'the face''s person_moment answers a stranger as the core does');
update airstrive.moments set title = 'taken' where id = 'c0000000-0000-4000-8000-000000000001';
select is(pg_temp.outcome($$delete from airstrive.user_grids where id = 'b0000000-0000-4000-8000-000000000001' returning 'deleted'$$),
          pg_temp.outcome($$delete from grids.user_grids where id = 'b0000000-0000-4000-8000-000000000001' returning 'deleted'$$),
  'a delete through the face is refused as through the core');
select tests.act_as(:'ann');
select is((select title from grids.moments where id = 'c0000000-0000-4000-8000-000000000001'), 'Tea',
  'a stranger''s update through the face changes nothing');
select ok(exists (select 1 from grids.user_grids where id = 'b0000000-0000-4000-8000-000000000001'),
  'nor does a stranger''s delete');

select tests.act_as(:'ben');
select is((airstrive.person_moment('c0000000-0000-4000-8000-000000000001') ->> 'title'), 'Tea',
  'a friend reads the moment through the face');
select tests.act_as_anon();
select throws_ok($$select * from airstrive.sync_pull('moments')$$, '42501', null, 'anon cannot sync through the face either');

select * from finish();
rollback;
