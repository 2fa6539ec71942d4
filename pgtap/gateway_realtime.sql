-- Realtime state shared by gateway processes: presence tracked, replaced and
-- removed per channel; processes that stop beating lose their presences; the
-- row-change trigger sits on the published tables only; clients reach none of it.
begin;
select plan(18);

select tests.act_as_service();
select realtime.gateway_track('realtime:lobby', 'node-a:1:1', 'ann', '00000000-0000-4000-8000-00000000000a', null, '{"status": "skiing"}');
select is((select count(*)::int from realtime.gateway_presences where topic = 'realtime:lobby'), 1, 'a track adds a presence');
select realtime.gateway_track('realtime:lobby', 'node-a:1:1', 'ann', '00000000-0000-4000-8000-00000000000a', null, '{"status": "lunch"}');
select is((select meta ->> 'status' from realtime.gateway_presences where topic = 'realtime:lobby'), 'lunch',
  'tracking again from the same channel replaces it');
select is((select count(*)::int from realtime.gateway_presences where topic = 'realtime:lobby'), 1, '… leaving one presence');
select realtime.gateway_track('realtime:lobby', 'node-b:7:3', 'bob', '00000000-0000-4000-8000-00000000000b', null, '{"status": "lift"}');
select is((select jsonb_object_keys(realtime.gateway_presence_state('realtime:lobby')) order by 1 limit 1), 'ann', 'the state is keyed by presence key');
select is(realtime.gateway_presence_state('realtime:lobby') -> 'bob' -> 'metas' -> 0 ->> 'status', 'lift', 'with each presence''s metas');
select ok((realtime.gateway_presence_state('realtime:lobby') -> 'bob' -> 'metas' -> 0 ->> 'phx_ref') like 'node-b:7:3:%', 'and a phx_ref per presence');
select throws_ok($$select realtime.gateway_track('realtime:lobby', 'x:1:1', 'k', gen_random_uuid(), null, jsonb_build_object('big', repeat('x', 3000)))$$,
  'P0001', 'presence_too_large', 'an oversized presence is refused');
select realtime.gateway_untrack('realtime:lobby', 'node-a:1:1');
select is((select array_agg(presence_key) from realtime.gateway_presences), array['bob'], 'an untrack removes that channel''s presence only');

-- Beats: a process silent for the stale interval loses its presences.
insert into realtime.gateway_nodes values ('00000000-0000-4000-8000-00000000000b', now() - interval '1 minute');
select is(realtime.gateway_beat('00000000-0000-4000-8000-00000000000c', '30 seconds'), 1, 'a beat sweeps a silent process''s presences');
select is((select count(*)::int from realtime.gateway_presences), 0, '… so none is left');
select ok(exists (select 1 from realtime.gateway_nodes where node_id = '00000000-0000-4000-8000-00000000000c'), 'the beating process is recorded');
select realtime.gateway_track('realtime:lobby', 'node-d:1:1', 'dee', '00000000-0000-4000-8000-00000000000d', null, '{}');
select is(realtime.gateway_beat('00000000-0000-4000-8000-00000000000c', '30 seconds'), 1,
  'a presence of a process that is not recorded at all (swept while it stalled) goes at the next beat');
select is((select count(*)::int from realtime.gateway_presences where presence_key = 'dee'), 0, '… and is gone');
select realtime.gateway_track('realtime:lobby', 'node-c:1:1', 'cy', '00000000-0000-4000-8000-00000000000c', null, '{}');
select realtime.gateway_leave_node('00000000-0000-4000-8000-00000000000c');
select is((select count(*)::int from realtime.gateway_presences), 0, 'a process leaving takes its presences with it');
select tests.clear_authentication();

-- The tables that send postgres_changes.
select ok(exists (select 1 from pg_trigger where tgrelid = 'social.friendships'::regclass and tgname = 'realtime_changes'),
  'friendships send row changes');
select ok(not exists (select 1 from pg_trigger where tgrelid = 'social.friend_requests'::regclass and tgname = 'realtime_changes'),
  'friend_requests, unreadable to clients, do not');
select is((select count(*)::int from pg_trigger where tgname = 'realtime_changes' and tgrelid = to_regclass('meet.meet_requests')),
  case when to_regclass('meet.meet_requests') is null then 0 else 1 end,
  'meet_requests send row changes when the table exists');

-- Clients reach none of it.
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'realtime' and p.proname like 'gateway_%'
             and (has_function_privilege('anon', p.oid, 'execute') or has_function_privilege('authenticated', p.oid, 'execute'))), 0,
  'anon and authenticated may execute none of the realtime functions');

select * from finish();
rollback;
