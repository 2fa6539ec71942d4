-- Meet requests: validation on insert, the state machine on update, who may
-- read and write, and the RPCs the apps and the worker call.
--
-- Every RPC runs as its caller (SECURITY INVOKER), so row level security and
-- the state-machine trigger see exactly who acts. Errors are P0001 with a
-- stable snake_case message and a hint saying what to do; a transition the
-- state machine does not allow is a check_violation (23514).

create or replace function meet.request_ttl() returns interval
  language sql immutable parallel safe
  set search_path = ''
  as $$ select interval '30 minutes' $$;

create or replace function meet.recovery_window() returns interval
  language sql immutable parallel safe
  set search_path = ''
  as $$ select interval '4 hours' $$;

-- Why a stored exact start is unusable, or null: {"node": "n…"} or
-- {"edge": "<edge id>", "fraction": 0…1}, optionally "accuracy_m" > 0.
create or replace function meet.start_problem(p_start jsonb, p_owner text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select case
      when p_start is null or jsonb_typeof(p_start) <> 'object' then
        format('%s must be an object: {"node": "n123"} or {"edge": "t45", "fraction": 0.25}', p_owner)
      when exists (select 1 from jsonb_object_keys(p_start) k where k not in ('node', 'edge', 'fraction', 'accuracy_m')) then
        format('%s takes only node, edge, fraction and accuracy_m', p_owner)
      when (p_start ? 'node') = (p_start ? 'edge') then
        format('%s needs exactly one of node or edge', p_owner)
      when p_start ? 'node' and coalesce(p_start ->> 'node', '') !~ '^n[0-9]+$' then
        format('%s: node must be a node id like n123', p_owner)
      when p_start ? 'edge' and (coalesce(p_start ->> 'edge', '') !~ '^[tlc][0-9]+(_s[0-9]+)?(_r)?$'
                                 or jsonb_typeof(p_start -> 'fraction') is distinct from 'number'
                                 or (p_start ->> 'fraction')::double precision not between 0 and 1) then
        format('%s: an edge start needs a stable edge id and a fraction within 0…1', p_owner)
      when p_start ? 'accuracy_m' and (jsonb_typeof(p_start -> 'accuracy_m') <> 'number'
                                       or (p_start ->> 'accuracy_m')::double precision <= 0) then
        format('%s: accuracy_m must be a positive number of metres', p_owner)
      when p_start ? 'node' and p_start ? 'fraction' then
        format('%s: a node start has no fraction', p_owner)
    end
  $$;

-- Why a stored path is unusable, or null: stable edge ids, at most 5000.
create or replace function meet.path_problem(p_path text[], p_owner text) returns text
  language sql immutable
  set search_path = ''
  as $$
    select case
      when p_path is null then format('%s is missing (an empty array when the skier already stands at the meeting point)', p_owner)
      when cardinality(p_path) > 5000 then format('%s has more than 5000 edges', p_owner)
      when exists (select 1 from unnest(p_path) e where e is null or e !~ '^[tlc][0-9]+(_s[0-9]+)?(_r)?$') then
        format('%s must hold only stable edge ids (t…, l…, c…)', p_owner)
    end
  $$;

-- Whether the caller and p_other are friends and neither has blocked the
-- other. Answers only about the caller, so it may be granted to clients.
create or replace function private.can_meet(p_other uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$ select private.is_friend(auth.uid(), p_other) and not private.blocked_pair(auth.uid(), p_other) $$;

-- The same for any two people on the trusted side (service role, sweeps);
-- a client may ask only about pairs it belongs to.
create or replace function private.may_meet(p_a uuid, p_b uuid) returns boolean
  language plpgsql stable
  set search_path = ''
  as $$
begin
  if private.internal() then
    return private.is_friend(p_a, p_b) and not private.blocked_pair(p_a, p_b);
  elsif auth.uid() = p_a then
    return private.can_meet(p_b);
  elsif auth.uid() = p_b then
    return private.can_meet(p_a);
  end if;
  return false;
end
$$;

-- ------------------------------------------------------------------ insert

-- A new request: sent by the caller to a friend neither has blocked, about a
-- published dataset identity and a rendezvous point of its catalog, with
-- usable starts, paths and ETAs. The server sets status and clock columns.
create or replace function meet.meet_requests_before_insert() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_manifest integer;
  v_graph text;
  v_sha text;
  v_snapshot date;
  v_problem text;
  v_anchor bigint;
  v_name text;
  v_now timestamptz := summit.now();
begin
  if not private.internal() and new.sender_id is distinct from v_uid then
    perform private.fail('not_sender', 'A meet request is sent by the signed-in user as sender_id.');
  end if;
  if new.sender_id = new.receiver_id then
    perform private.fail('cannot_meet_yourself', 'Choose a friend to meet.');
  end if;
  if not private.may_meet(new.sender_id, new.receiver_id) then
    perform private.fail('not_friends', 'Only friends can plan a meet; send a friend request first.');
  end if;

  -- A legacy request (migration 0109), written by definer code on the sender's behalf
  -- (an app face): kept as sent, on the server's clock, never canonical.
  if new.dataset_version is null and private.internal() and v_uid is not null and new.sender_id = v_uid then
    if coalesce(btrim(new.meeting_node_id), '') = '' then
      perform private.fail('invalid_meet_plan', 'A meet needs the meeting node it ends at.');
    end if;
    new.rendezvous_point_id := null;
    new.meeting_node_display_name := coalesce(nullif(btrim(new.meeting_node_display_name), ''), new.meeting_node_id);
    new.sender_path_edge_ids := coalesce(new.sender_path_edge_ids, '{}');
    new.receiver_path_edge_ids := coalesce(new.receiver_path_edge_ids, '{}');
    new.status := 'pending';
    new.created_at := v_now;
    new.expires_at := v_now + meet.request_ttl();
    new.updated_at := v_now;
    new.accepted_at := null;
    new.ended_at := null;
    new.ended_by := null;
    return new;
  end if;

  if new.dataset_version is null or new.dataset_version !~ '^m[1-9][0-9]{0,8}-v[0-9]+-[0-9a-f]{64}$' then
    perform private.fail('dataset_version_required',
      'Plan on a published canonical dataset and send its full identity, m<manifest>-<graph version>-<64-hex sha256>.');
  end if;
  v_manifest := substring(new.dataset_version from '^m([0-9]+)-')::integer;
  v_graph := substring(new.dataset_version from '^m[0-9]+-(v[0-9]+)-');
  v_sha := right(new.dataset_version, 64);
  select p.snapshot_date into v_snapshot
  from mountain.resort_canonical_publication p
  where p.resort_id = new.resort_id and p.manifest_version = v_manifest and p.graph_version = v_graph and p.content_sha256 = v_sha;
  if not found then
    perform private.fail('dataset_not_published', format(
      '%s of resort %s was never published; plan again on the resort''s published dataset.', new.dataset_version, new.resort_id));
  end if;
  if new.manifest_version is not null and new.manifest_version <> v_manifest then
    perform private.fail('dataset_identity_mismatch', 'manifest_version must be the manifest of dataset_version.');
  end if;
  if new.graph_snapshot_date is not null and new.graph_snapshot_date <> v_snapshot then
    perform private.fail('dataset_identity_mismatch', format('dataset %s was built from the %s snapshot.', new.dataset_version, v_snapshot));
  end if;

  if new.rendezvous_point_id is null or new.rendezvous_point_id !~ '^rp[0-9]+$' then
    perform private.fail('rendezvous_point_unknown', 'rendezvous_point_id is the catalog id rp<anchor node>.');
  end if;
  v_anchor := substr(new.rendezvous_point_id, 3)::bigint;
  select r.display_name into v_name
  from mountain.canonical_rendezvous_point r
  where r.resort_id = new.resort_id and r.manifest_version = v_manifest and r.anchor_osm_node_id = v_anchor;
  if not found then
    perform private.fail('rendezvous_point_unknown', format(
      '%s is not in the rendezvous catalog of %s; a meet ends only at a catalog point.', new.rendezvous_point_id, new.dataset_version));
  end if;
  if new.meeting_node_id is distinct from 'n' || v_anchor then
    perform private.fail('rendezvous_point_unknown', format('the meeting node of %s is n%s.', new.rendezvous_point_id, v_anchor));
  end if;

  v_problem := coalesce(meet.start_problem(new.sender_start, 'sender_start'), meet.start_problem(new.receiver_start, 'receiver_start'),
                        meet.path_problem(new.sender_path_edge_ids, 'sender_path_edge_ids'),
                        meet.path_problem(new.receiver_path_edge_ids, 'receiver_path_edge_ids'));
  if v_problem is not null then
    perform private.fail('invalid_meet_plan', v_problem || '.');
  end if;
  if new.sender_eta_seconds is null or new.receiver_eta_seconds is null
     or new.sender_eta_std_seconds is null or new.receiver_eta_std_seconds is null
     or not (new.sender_eta_seconds >= 0 and new.receiver_eta_seconds >= 0
             and new.sender_eta_std_seconds >= 0 and new.receiver_eta_std_seconds >= 0
             and new.sender_eta_seconds < 86400 and new.receiver_eta_seconds < 86400) then
    perform private.fail('invalid_meet_plan',
      'Both ETAs and both ETA standard deviations are required: seconds, 0 or more, ETAs under a day.');
  end if;

  new.manifest_version := v_manifest;
  new.graph_snapshot_date := v_snapshot;
  new.meeting_node_display_name := coalesce(nullif(btrim(new.meeting_node_display_name), ''), v_name);
  new.sender_position_node_id := new.sender_start ->> 'node';
  new.receiver_position_node_id := new.receiver_start ->> 'node';
  new.status := 'pending';
  new.created_at := v_now;
  new.expires_at := v_now + meet.request_ttl();
  new.updated_at := v_now;
  new.accepted_at := null;
  new.ended_at := null;
  new.ended_by := null;
  return new;
end
$$;

drop trigger if exists meet_requests_before_insert on meet.meet_requests;
create trigger meet_requests_before_insert before insert on meet.meet_requests
  for each row execute function meet.meet_requests_before_insert();

-- ------------------------------------------------------------------ state machine

-- pending → accepted (receiver), pending → declined (receiver),
-- pending → expired (sender's cancel, receiver, or the sweep),
-- accepted → expired (either party ends it). Same → same is an attribute
-- update of the caller's own side (route, ETA) while pending or accepted.
-- Anything else is a check_violation. What a request is about never changes.
create or replace function meet.meet_requests_transition() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_system boolean := private.internal();
  v_party text := case when v_uid = old.sender_id then 'sender' when v_uid = old.receiver_id then 'receiver' end;
  v_now timestamptz := summit.now();
  v_sender_side_changed boolean;
  v_receiver_side_changed boolean;
begin
  if (new.id, new.sender_id, new.receiver_id, new.resort_id, new.rendezvous_point_id, new.meeting_node_id,
      new.meeting_node_elevation, new.meeting_node_display_name, new.created_at, new.expires_at,
      new.graph_snapshot_date, new.manifest_version, new.dataset_version)
     is distinct from
     (old.id, old.sender_id, old.receiver_id, old.resort_id, old.rendezvous_point_id, old.meeting_node_id,
      old.meeting_node_elevation, old.meeting_node_display_name, old.created_at, old.expires_at,
      old.graph_snapshot_date, old.manifest_version, old.dataset_version) then
    raise exception using errcode = '23514', message = 'meet_request_immutable',
      hint = 'Who, where and on which dataset a meet is never changes; send a new request instead.';
  end if;
  if v_party is null and not v_system then
    raise exception using errcode = '42501', message = 'not_a_party',
      hint = 'Only the sender and the receiver act on a meet request.';
  end if;

  v_sender_side_changed := (new.sender_start, new.sender_eta_seconds, new.sender_eta_std_seconds, new.sender_path_edge_ids,
                            new.sender_position_node_id)
    is distinct from (old.sender_start, old.sender_eta_seconds, old.sender_eta_std_seconds, old.sender_path_edge_ids,
                      old.sender_position_node_id);
  v_receiver_side_changed := (new.receiver_start, new.receiver_eta_seconds, new.receiver_eta_std_seconds, new.receiver_path_edge_ids,
                              new.receiver_position_node_id)
    is distinct from (old.receiver_start, old.receiver_eta_seconds, old.receiver_eta_std_seconds, old.receiver_path_edge_ids,
                      old.receiver_position_node_id);

  -- The server's own columns follow the transition, never the caller.
  new.accepted_at := old.accepted_at;
  new.ended_at := old.ended_at;
  new.ended_by := old.ended_by;
  new.updated_at := v_now;

  if new.status = old.status then
    if old.status not in ('pending', 'accepted') then
      raise exception using errcode = '23514', message = 'meet_request_finished',
        hint = format('This meet request is %s; nothing about it changes any more.', old.status);
    end if;
    if (v_sender_side_changed and v_party is distinct from 'sender' and not v_system)
       or (v_receiver_side_changed and v_party is distinct from 'receiver' and not v_system) then
      raise exception using errcode = '42501', message = 'not_your_route',
        hint = 'Each party updates only their own start, path and ETA.';
    end if;
    if old.dataset_version is not null and (meet.path_problem(new.sender_path_edge_ids, 'sender_path_edge_ids') is not null
       or meet.path_problem(new.receiver_path_edge_ids, 'receiver_path_edge_ids') is not null
       or meet.start_problem(new.sender_start, 'sender_start') is not null
       or meet.start_problem(new.receiver_start, 'receiver_start') is not null) then
      perform private.fail('invalid_meet_plan', coalesce(
        meet.start_problem(new.sender_start, 'sender_start'), meet.start_problem(new.receiver_start, 'receiver_start'),
        meet.path_problem(new.sender_path_edge_ids, 'sender_path_edge_ids'),
        meet.path_problem(new.receiver_path_edge_ids, 'receiver_path_edge_ids')) || '.');
    end if;
    return new;
  end if;

  if v_sender_side_changed or v_receiver_side_changed then
    raise exception using errcode = '23514', message = 'meet_request_changed_in_transition',
      hint = 'Change the state and the routes in separate updates.';
  end if;

  case old.status || '→' || new.status
    when 'pending→accepted' then
      if v_party is distinct from 'receiver' then
        raise exception using errcode = '23514', message = 'illegal_meet_transition',
          hint = 'Only the receiver accepts a meet request.';
      end if;
      if old.expires_at <= v_now then
        perform private.fail('meet_request_expired', 'This request has expired; ask your friend to plan the meet again.');
      end if;
      if not private.may_meet(old.sender_id, old.receiver_id) then
        perform private.fail('not_friends', 'Only friends can meet.');
      end if;
      new.accepted_at := v_now;
    when 'pending→declined' then
      if v_party is distinct from 'receiver' then
        raise exception using errcode = '23514', message = 'illegal_meet_transition',
          hint = 'Only the receiver declines a meet request; the sender cancels it by ending it.';
      end if;
      new.ended_at := v_now;
      new.ended_by := v_uid;
    when 'pending→expired' then
      new.ended_at := v_now;
      new.ended_by := case when v_party is not null then v_uid end;
    when 'accepted→expired' then
      if v_party is null then
        raise exception using errcode = '23514', message = 'illegal_meet_transition',
          hint = 'An accepted meet is ended by one of its two skiers.';
      end if;
      new.ended_at := v_now;
      new.ended_by := v_uid;
    else
      raise exception using errcode = '23514', message = 'illegal_meet_transition',
        hint = format('A meet request cannot go from %s to %s.', old.status, new.status);
  end case;
  return new;
end
$$;

drop trigger if exists meet_requests_transition on meet.meet_requests;
create trigger meet_requests_transition before update on meet.meet_requests
  for each row execute function meet.meet_requests_transition();

-- ------------------------------------------------------------------ access

drop policy if exists meet_requests_party_read on meet.meet_requests;
create policy meet_requests_party_read on meet.meet_requests
  for select to authenticated
  using (sender_id = (select auth.uid()) or receiver_id = (select auth.uid()));

drop policy if exists meet_requests_sender_insert on meet.meet_requests;
create policy meet_requests_sender_insert on meet.meet_requests
  for insert to authenticated
  with check (sender_id = (select auth.uid()) and private.can_meet(receiver_id));

drop policy if exists meet_requests_party_update on meet.meet_requests;
create policy meet_requests_party_update on meet.meet_requests
  for update to authenticated
  using (sender_id = (select auth.uid()) or receiver_id = (select auth.uid()))
  with check (sender_id = (select auth.uid()) or receiver_id = (select auth.uid()));

drop policy if exists end_intents_own on meet.end_intents;
create policy end_intents_own on meet.end_intents
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid())
              and exists (select 1 from meet.meet_requests r where r.id = request_id));

revoke all on function private.can_meet(uuid), private.may_meet(uuid, uuid) from public;
grant execute on function private.can_meet(uuid), private.may_meet(uuid, uuid) to authenticated, service_role;
-- The meet RPCs run as the caller; this one only ever answers about the caller.
grant execute on function private.require_user() to authenticated;

-- ------------------------------------------------------------------ RPCs

-- The request as the apps read it.
create or replace function meet.request_json(p meet.meet_requests) returns jsonb
  language sql stable
  set search_path = ''
  as $$ select to_jsonb(p) $$;

-- Sends a planned meet to a friend. p_plan holds resort_id, dataset_version,
-- rendezvous_point_id, meeting_node_id, meeting_node_display_name,
-- meeting_node_elevation, sender_start, receiver_start, sender/receiver
-- eta_seconds, eta_std_seconds and path_edge_ids (graph_snapshot_date and
-- manifest_version optional: they must match the identity).
--
-- If the friend already sent the caller a pending request, that one is
-- accepted instead (answer: auto_accepted true); otherwise the caller's
-- earlier pending requests to the same friend expire and this one is stored.
create or replace function meet.send_meet_request(p_receiver_id uuid, p_plan jsonb) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_row meet.meet_requests;
  v_now timestamptz := summit.now();
  v_key text;
begin
  if p_receiver_id is null then
    perform private.fail('receiver_required', 'Say whom to meet.');
  end if;
  if jsonb_typeof(p_plan) is distinct from 'object' then
    perform private.fail('invalid_meet_plan', 'The plan is a JSON object (see summit meet plan --json).');
  end if;
  select k into v_key from jsonb_object_keys(p_plan) k
  where k not in ('resort_id', 'dataset_version', 'manifest_version', 'graph_snapshot_date', 'rendezvous_point_id', 'meeting_node_id',
                  'meeting_node_display_name', 'meeting_node_elevation', 'sender_start', 'receiver_start',
                  'sender_eta_seconds', 'receiver_eta_seconds', 'sender_eta_std_seconds', 'receiver_eta_std_seconds',
                  'sender_path_edge_ids', 'receiver_path_edge_ids')
  limit 1;
  if v_key is not null then
    perform private.fail('invalid_meet_plan', format('The plan has an unknown field "%s".', v_key));
  end if;
  if jsonb_typeof(p_plan -> 'sender_path_edge_ids') is distinct from 'array'
     or jsonb_typeof(p_plan -> 'receiver_path_edge_ids') is distinct from 'array' then
    perform private.fail('invalid_meet_plan', 'sender_path_edge_ids and receiver_path_edge_ids are arrays of edge ids.');
  end if;
  if not private.can_meet(p_receiver_id) then
    perform private.fail('not_friends', 'Only friends can plan a meet; send a friend request first.');
  end if;

  -- They asked first: accept theirs.
  select r.* into v_row from meet.meet_requests r
  where r.sender_id = p_receiver_id and r.receiver_id = v_uid and r.status = 'pending' and r.expires_at > v_now
  order by r.created_at desc, r.id
  limit 1;
  if found then
    update meet.meet_requests set status = 'accepted' where id = v_row.id returning * into v_row;
    return jsonb_build_object('auto_accepted', true, 'request', meet.request_json(v_row));
  end if;

  update meet.meet_requests set status = 'expired'
  where sender_id = v_uid and receiver_id = p_receiver_id and status = 'pending';

  insert into meet.meet_requests (
    sender_id, receiver_id, resort_id, dataset_version, manifest_version, graph_snapshot_date,
    rendezvous_point_id, meeting_node_id, meeting_node_display_name, meeting_node_elevation,
    sender_start, receiver_start, sender_eta_seconds, receiver_eta_seconds,
    sender_eta_std_seconds, receiver_eta_std_seconds, sender_path_edge_ids, receiver_path_edge_ids,
    created_at, expires_at, updated_at)
  values (
    v_uid, p_receiver_id, p_plan ->> 'resort_id', p_plan ->> 'dataset_version', (p_plan ->> 'manifest_version')::integer,
    (p_plan ->> 'graph_snapshot_date')::date,
    p_plan ->> 'rendezvous_point_id', p_plan ->> 'meeting_node_id', coalesce(p_plan ->> 'meeting_node_display_name', ''),
    (p_plan ->> 'meeting_node_elevation')::double precision,
    p_plan -> 'sender_start', p_plan -> 'receiver_start',
    (p_plan ->> 'sender_eta_seconds')::double precision, (p_plan ->> 'receiver_eta_seconds')::double precision,
    (p_plan ->> 'sender_eta_std_seconds')::double precision, (p_plan ->> 'receiver_eta_std_seconds')::double precision,
    array(select jsonb_array_elements_text(p_plan -> 'sender_path_edge_ids')),
    array(select jsonb_array_elements_text(p_plan -> 'receiver_path_edge_ids')),
    v_now, v_now + meet.request_ttl(), v_now)
  returning * into v_row;
  return jsonb_build_object('auto_accepted', false, 'request', meet.request_json(v_row));
end
$$;

-- One of the caller's requests, read under RLS (so only a party finds it),
-- or the error that says there is none.
create or replace function private.party_request(p_request_id uuid) returns meet.meet_requests
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_row meet.meet_requests;
begin
  select r.* into v_row from meet.meet_requests r where r.id = p_request_id;
  if not found then
    perform private.fail('meet_request_not_found', 'No meet request with that id involves you.');
  end if;
  return v_row;
end
$$;
grant execute on function private.party_request(uuid) to authenticated;

-- Moves one of the caller's requests to p_status under the state machine.
create or replace function meet.move_meet_request(p_request_id uuid, p_status text) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_row meet.meet_requests;
begin
  update meet.meet_requests set status = p_status where id = p_request_id returning * into v_row;
  if not found then
    perform private.fail('meet_request_not_found', 'No meet request with that id involves you; list yours with summit meet list.');
  end if;
  return meet.request_json(v_row);
end
$$;

create or replace function meet.accept_meet_request(p_request_id uuid) returns jsonb
  language sql volatile
  set search_path = ''
  as $$ select meet.move_meet_request(p_request_id, 'accepted') $$;

create or replace function meet.decline_meet_request(p_request_id uuid) returns jsonb
  language sql volatile
  set search_path = ''
  as $$ select meet.move_meet_request(p_request_id, 'declined') $$;

-- Records the caller's intent to end a meet before anything else lets go of
-- it. Idempotent. Ending (end_meet_request) removes it once the server has
-- accepted the end; until then recovery yields to it and it is retried.
create or replace function meet.save_end_intent(p_request_id uuid) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  perform private.party_request(p_request_id);
  insert into meet.end_intents (user_id, request_id, created_at) values (v_uid, p_request_id, summit.now())
  on conflict do nothing;
  return jsonb_build_object('request_id', p_request_id, 'saved', true);
end
$$;

-- Ends a meet (cancel while pending, end once accepted): idempotent; a
-- request already declined or expired is left as it is. In the same
-- transaction, and only when the end went through, the caller's end intent
-- for it is removed.
create or replace function meet.end_meet_request(p_request_id uuid) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_row meet.meet_requests;
begin
  v_row := private.party_request(p_request_id);
  if v_row.status in ('pending', 'accepted') then
    update meet.meet_requests set status = 'expired' where id = p_request_id returning * into v_row;
  end if;
  delete from meet.end_intents where user_id = v_uid and request_id = p_request_id;
  return meet.request_json(v_row);
end
$$;

-- The caller's end intents still waiting for the server, oldest first.
create or replace function meet.pending_end_intents() returns setof meet.end_intents
  language sql stable
  set search_path = ''
  as $$
    select i.* from meet.end_intents i where i.user_id = auth.uid() order by i.created_at, i.request_id
  $$;

-- Cold-start recovery: the newest accepted meet involving the caller created
-- within four hours, whose full dataset identity is present (stamped and
-- still in the publication history), and which the caller has not already
-- asked to end. At most one row.
create or replace function meet.recover_meet_request() returns setof meet.meet_requests
  language sql stable
  set search_path = ''
  as $$
    select r.* from meet.meet_requests r
    where (r.sender_id = auth.uid() or r.receiver_id = auth.uid())
      and r.status = 'accepted'
      and r.created_at >= summit.now() - meet.recovery_window()
      and r.dataset_version is not null
      and exists (select 1 from mountain.resort_canonical_publication p
                  where p.resort_id = r.resort_id
                    and r.dataset_version = 'm' || p.manifest_version || '-' || p.graph_version || '-' || p.content_sha256)
      and not exists (select 1 from meet.end_intents i where i.user_id = auth.uid() and i.request_id = r.id)
    order by r.created_at desc, r.id
    limit 1
  $$;

-- A party's own route after a reroute: start, path, ETA and its std.
create or replace function meet.update_my_route(
  p_request_id uuid, p_start jsonb, p_path_edge_ids text[], p_eta_seconds double precision, p_eta_std_seconds double precision
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_row meet.meet_requests;
begin
  v_row := private.party_request(p_request_id);
  if p_eta_seconds is null or p_eta_std_seconds is null or p_eta_seconds < 0 or p_eta_std_seconds < 0 or p_eta_seconds >= 86400 then
    perform private.fail('invalid_meet_plan', 'The ETA and its standard deviation are seconds, 0 or more (ETA under a day).');
  end if;
  if v_uid = v_row.sender_id then
    update meet.meet_requests set sender_start = p_start, sender_path_edge_ids = p_path_edge_ids,
      sender_eta_seconds = p_eta_seconds, sender_eta_std_seconds = p_eta_std_seconds, sender_position_node_id = p_start ->> 'node'
    where id = p_request_id returning * into v_row;
  else
    update meet.meet_requests set receiver_start = p_start, receiver_path_edge_ids = p_path_edge_ids,
      receiver_eta_seconds = p_eta_seconds, receiver_eta_std_seconds = p_eta_std_seconds, receiver_position_node_id = p_start ->> 'node'
    where id = p_request_id returning * into v_row;
  end if;
  return meet.request_json(v_row);
end
$$;

-- The sweep: pending requests past expires_at expire. Returns how many.
-- Accepted meets are not swept; their parties end them.
create or replace function meet.expire_stale_meet_requests() returns integer
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_count integer;
begin
  update meet.meet_requests set status = 'expired' where status = 'pending' and expires_at < summit.now();
  get diagnostics v_count = row_count;
  return v_count;
end
$$;

revoke all on function meet.request_ttl(), meet.recovery_window(), meet.start_problem(jsonb, text), meet.path_problem(text[], text),
  meet.meet_requests_before_insert(), meet.meet_requests_transition(), meet.request_json(meet.meet_requests),
  meet.send_meet_request(uuid, jsonb), meet.move_meet_request(uuid, text), meet.accept_meet_request(uuid),
  meet.decline_meet_request(uuid), meet.save_end_intent(uuid), meet.end_meet_request(uuid), meet.pending_end_intents(),
  meet.recover_meet_request(), meet.update_my_route(uuid, jsonb, text[], double precision, double precision),
  meet.expire_stale_meet_requests()
  from public;
-- Helpers the triggers and RPCs call run as the client.
grant execute on function meet.request_ttl(), meet.recovery_window(), meet.start_problem(jsonb, text),
  meet.path_problem(text[], text), meet.request_json(meet.meet_requests), meet.move_meet_request(uuid, text)
  to authenticated, service_role;
grant execute on function meet.send_meet_request(uuid, jsonb), meet.accept_meet_request(uuid), meet.decline_meet_request(uuid),
  meet.save_end_intent(uuid), meet.end_meet_request(uuid), meet.pending_end_intents(), meet.recover_meet_request(),
  meet.update_my_route(uuid, jsonb, text[], double precision, double precision)
  to authenticated;
grant execute on function meet.expire_stale_meet_requests() to service_role;

-- Row changes tell both parties on meets:{user id} (ids only; they re-read
-- under row level security). The notifying function comes with the relay.
do $$
begin
  if to_regprocedure('private.notify_parties()') is not null then
    drop trigger if exists meet_requests_notify on meet.meet_requests;
    create trigger meet_requests_notify after insert or update or delete on meet.meet_requests
      for each row execute function private.notify_parties('meets', 'id', 'sender_id', 'receiver_id');
  end if;
end
$$;
