-- Realtime for summit serve: presence shared by every gateway process, and the
-- row-change notifications behind postgres_changes.
--
-- Every presence change is written and announced in one statement: the write and
-- a pg_notify on the topic's channel (rt:{hash}), which every process LISTENs to
-- while it has members there, so presence converges across processes. A process
-- that dies stops beating; another one sweeps its presences and announces the
-- leaves.

-- The notification channel of a topic (names are limited to 63 bytes; topics are not).
create or replace function realtime.gateway_channel(p_topic text) returns text
  language sql immutable
  set search_path = ''
  as $$ select 'rt:' || left(encode(public.digest(convert_to(p_topic, 'UTF8'), 'sha256'), 'hex'), 24) $$;

-- {key: {metas: [meta + phx_ref]}} for a set of rows.
create or replace function realtime.gateway_presence_json(p_rows realtime.gateway_presences[]) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select coalesce(jsonb_object_agg(k, jsonb_build_object('metas', metas)), '{}'::jsonb)
    from (select r.presence_key as k, jsonb_agg(r.meta || jsonb_build_object('phx_ref', r.presence_ref) order by r.updated_at) as metas
          from unnest(p_rows) r where r.presence_key is not null group by r.presence_key) grouped
  $$;

-- Tracks (or re-tracks) one presence and announces the diff.
create or replace function realtime.gateway_track(p_topic text, p_ref text, p_key text, p_node uuid, p_user uuid, p_meta jsonb)
  returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_old realtime.gateway_presences;
  v_new realtime.gateway_presences;
  v_leaves jsonb := '{}'::jsonb;
begin
  if jsonb_typeof(p_meta) <> 'object' or octet_length(p_meta::text) > 2048 then
    raise exception using errcode = 'P0001', message = 'presence_too_large',
      hint = 'track a JSON object of at most 2048 bytes';
  end if;
  -- The same channel tracking again replaces its presence; a new key leaves the old one.
  select * into v_old from realtime.gateway_presences where topic = p_topic and presence_ref like p_ref || ':%' for update;
  if found then
    v_leaves := realtime.gateway_presence_json(array[v_old]);
  end if;
  delete from realtime.gateway_presences where topic = p_topic and presence_ref like p_ref || ':%';
  insert into realtime.gateway_presences (topic, presence_ref, presence_key, node_id, user_id, meta)
  values (p_topic, p_ref || ':' || left(md5(random()::text), 8), p_key, p_node, p_user, p_meta)
  returning * into v_new;
  perform pg_notify(realtime.gateway_channel(p_topic), jsonb_build_object(
    'kind', 'presence', 'topic', p_topic,
    'joins', realtime.gateway_presence_json(array[v_new]),
    'leaves', v_leaves)::text);
end
$$;

-- Removes one channel's presence on a topic (or every presence of a channel prefix) and announces the leaves.
create or replace function realtime.gateway_untrack(p_topic text, p_ref text) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_gone realtime.gateway_presences[];
begin
  with gone as (delete from realtime.gateway_presences where topic = p_topic and presence_ref like p_ref || ':%' returning *)
  select array_agg(gone) into v_gone from gone;
  if v_gone is not null then
    perform pg_notify(realtime.gateway_channel(p_topic), jsonb_build_object(
      'kind', 'presence', 'topic', p_topic, 'joins', '{}'::jsonb,
      'leaves', realtime.gateway_presence_json(v_gone))::text);
  end if;
end
$$;

-- Everyone present on a topic, for a new member's presence_state.
create or replace function realtime.gateway_presence_state(p_topic text) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select realtime.gateway_presence_json(coalesce(array_agg(p), '{}'))
    from realtime.gateway_presences p where p.topic = p_topic
  $$;

-- A live process beats; presences of processes silent for p_stale go, with their leaves announced.
create or replace function realtime.gateway_beat(p_node uuid, p_stale interval) returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_dead uuid[];
  v_topic record;
  v_count integer := 0;
begin
  insert into realtime.gateway_nodes (node_id, seen_at) values (p_node, now())
  on conflict (node_id) do update set seen_at = now();
  select coalesce(array_agg(node_id), '{}') into v_dead from realtime.gateway_nodes where seen_at < now() - p_stale;
  -- Presences of a process no longer recorded at all go too: one that stalled past the
  -- stale interval may have tracked again after its node was swept, and nothing else
  -- would ever remove those.
  for v_topic in
    with gone as (
      delete from realtime.gateway_presences p
      where p.node_id = any(v_dead)
         or not exists (select 1 from realtime.gateway_nodes n where n.node_id = p.node_id)
      returning *)
    select topic, array_agg(gone::realtime.gateway_presences) as rows from gone group by topic
  loop
    perform pg_notify(realtime.gateway_channel(v_topic.topic), jsonb_build_object(
      'kind', 'presence', 'topic', v_topic.topic, 'joins', '{}'::jsonb,
      'leaves', realtime.gateway_presence_json(v_topic.rows))::text);
    v_count := v_count + cardinality(v_topic.rows);
  end loop;
  delete from realtime.gateway_nodes where node_id = any(v_dead);
  return v_count;
end
$$;

-- A process shutting down takes its presences with it at once.
create or replace function realtime.gateway_leave_node(p_node uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_topic record;
begin
  for v_topic in
    with gone as (delete from realtime.gateway_presences where node_id = p_node returning *)
    select topic, array_agg(gone::realtime.gateway_presences) as rows from gone group by topic
  loop
    perform pg_notify(realtime.gateway_channel(v_topic.topic), jsonb_build_object(
      'kind', 'presence', 'topic', v_topic.topic, 'joins', '{}'::jsonb,
      'leaves', realtime.gateway_presence_json(v_topic.rows))::text);
  end loop;
  delete from realtime.gateway_nodes where node_id = p_node;
end
$$;

-- Row changes for postgres_changes: attached to a table as
--   private.realtime_change('pk_col[,pk_col…]', 'party_col', …)
-- it tells changes:{party} for every party of the old and the new row
--   {"schema":…,"table":…,"type":"INSERT|UPDATE|DELETE","key":{pk…},"at":commit time}
-- — ids only: subscribers re-read the row under RLS, so nothing reaches anyone RLS
-- would not show them, and payloads stay far from NOTIFY's limit. With a first
-- argument '@schema.view' the change is told as one of that view (an app face's),
-- whose rows the key finds; such a trigger is named realtime_changes_as_<view>.
create or replace function private.realtime_change() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_row jsonb := to_jsonb(case when tg_op = 'DELETE' then old else new end);
  v_old jsonb := case when tg_op = 'UPDATE' then to_jsonb(old) end;
  v_key jsonb := '{}'::jsonb;
  v_column text;
  v_parties text[] := '{}';
  v_party text;
  v_payload text;
  v_first integer := 0;
  v_schema text := tg_table_schema;
  v_table text := tg_table_name;
begin
  if tg_nargs > 0 and left(tg_argv[0], 1) = '@' then
    v_schema := split_part(substr(tg_argv[0], 2), '.', 1);
    v_table := split_part(tg_argv[0], '.', 2);
    v_first := 1;
  end if;
  if tg_nargs - v_first < 2 then
    raise exception using
      message = format('private.realtime_change on %I.%I needs the key columns and at least one party column', tg_table_schema, tg_table_name),
      hint = 'attach it as private.realtime_change(''id'', ''owner_id'')';
  end if;
  foreach v_column in array string_to_array(tg_argv[v_first], ',') loop
    v_key := v_key || jsonb_build_object(v_column, v_row -> v_column);
  end loop;
  for i in v_first + 1..tg_nargs - 1 loop
    v_party := v_row ->> tg_argv[i];
    if v_party is not null then v_parties := v_parties || v_party; end if;
    v_party := v_old ->> tg_argv[i];
    if v_party is not null then v_parties := v_parties || v_party; end if;
  end loop;
  v_payload := jsonb_build_object('schema', v_schema, 'table', v_table, 'type', tg_op, 'key', v_key,
    'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))::text;
  foreach v_party in array (select array_agg(distinct p) from unnest(v_parties) p) loop
    perform pg_notify('changes:' || v_party, v_payload);
  end loop;
  return null;
end
$$;

-- The tables the apps subscribe to. A table added later (a new migration) is
-- picked up when this file is re-applied with it.
drop trigger if exists realtime_changes on social.friendships;
create trigger realtime_changes after insert or update or delete on social.friendships
  for each row execute function private.realtime_change('user_a,user_b', 'user_a', 'user_b');

-- (social.friend_requests is not published: clients may not read it, only its RPCs.)
drop trigger if exists realtime_changes on social.friend_requests;

do $$
begin
  if to_regclass('meet.meet_requests') is not null then
    execute 'drop trigger if exists realtime_changes on meet.meet_requests';
    execute $t$create trigger realtime_changes after insert or update or delete on meet.meet_requests
      for each row execute function private.realtime_change('id', 'sender_id', 'receiver_id')$t$;
  end if;
end
$$;

revoke all on function realtime.gateway_channel(text), realtime.gateway_presence_json(realtime.gateway_presences[]),
  realtime.gateway_track(text, text, text, uuid, uuid, jsonb), realtime.gateway_untrack(text, text),
  realtime.gateway_presence_state(text), realtime.gateway_beat(uuid, interval), realtime.gateway_leave_node(uuid),
  private.realtime_change()
  from public;
grant execute on function realtime.gateway_channel(text), realtime.gateway_track(text, text, text, uuid, uuid, jsonb),
  realtime.gateway_untrack(text, text), realtime.gateway_presence_state(text), realtime.gateway_beat(uuid, interval),
  realtime.gateway_leave_node(uuid)
  to service_role;
-- Trigger bodies run as the writer (a client role, or a definer function's owner).
grant execute on function private.realtime_change() to anon, authenticated, service_role;
