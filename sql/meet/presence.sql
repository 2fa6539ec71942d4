-- Live positions: who may read the stored ones, the publish RPC, and the sweep.
--
-- Two paths carry a position. The stored path is meet.live_presence, read
-- under row level security (own row, unblocked friends). The hot path is a
-- NOTIFY on pos:cell:{geohash6} and pos:resort:{resort_id}; there no RLS can
-- run, so the relay filters every packet by the subscriber's social snapshot.

-- How long a position is kept after the server last heard from its sender.
create or replace function meet.presence_ttl() returns interval
  language sql immutable parallel safe
  set search_path = ''
  as $$ select interval '15 minutes' $$;

-- How far ahead of the server's clock a sender's capture time may be. A sample
-- from the future would shadow every honest sample after it (older ones are
-- dropped), so the bound is the routing-grade skew (spec §7.4).
create or replace function meet.max_future_skew() returns interval
  language sql immutable parallel safe
  set search_path = ''
  as $$ select interval '10 seconds' $$;

-- The caller's friends that neither side has blocked. Reads friendships and
-- blocks only: a policy on live_presence must never read the caller's own
-- live_presence row (the seed's production lesson: it hid every friend whose
-- viewer had no fresh row of their own).
create or replace function private.my_unblocked_friend_ids() returns setof uuid
  language sql stable security definer
  set search_path = ''
  as $$
    select f.user_b from social.friendships f where f.user_a = auth.uid()
    union
    select f.user_a from social.friendships f where f.user_b = auth.uid()
    except
    select b.blocked_id from social.blocks b where b.blocker_id = auth.uid()
    except
    select b.blocker_id from social.blocks b where b.blocked_id = auth.uid()
  $$;

drop policy if exists live_presence_own_read on meet.live_presence;
create policy live_presence_own_read on meet.live_presence
  for select to authenticated
  using (user_id = (select auth.uid()));

drop policy if exists live_presence_friend_read on meet.live_presence;
create policy live_presence_friend_read on meet.live_presence
  for select to authenticated
  using (user_id in (select private.my_unblocked_friend_ids()));

-- The packet friends receive (spec §7.2), as compact JSON with short keys;
-- absent fields are left out. It carries no name (`n` is optional): the relay
-- labels positions from each subscriber's social snapshot, which has every
-- friend's display name, so the publish path never reads the profile. `at` is the capture time in Unix seconds with
-- microseconds. Its largest possible size is bounded by broadcast_position's
-- checks (see the README): far below NOTIFY's 8000-byte limit.
-- Written out by concatenation (numbers print as json_build_object prints them,
-- texts go through to_json), so no JSON document is built and parsed again to
-- strip its nulls. A SQL function with no SET clause is inlined into its
-- caller's expression; one that cannot be inlined would be planned anew on
-- every call. Its body names only pg_catalog functions, qualified.
drop function if exists private.position_packet(meet.live_presence, text);
create or replace function private.position_packet(p meet.live_presence) returns text
  language sql stable parallel safe
  as $$
    select '{"u":"' || p.user_id::text || '","lat":' || p.lat::text || ',"lon":' || p.lon::text
      || ',"at":' || pg_catalog.extract('epoch', p.captured_at)::text
      || coalesce(',"acc":' || p.accuracy_m::text, '') || coalesce(',"alt":' || p.altitude_m::text, '')
      || coalesce(',"spd":' || p.speed_mps::text, '') || coalesce(',"hdg":' || p.heading_deg::text, '')
      || coalesce(',"node":' || pg_catalog.to_json(p.node_id)::text, '')
      || coalesce(',"edge":' || pg_catalog.to_json(p.edge_id)::text, '')
      || coalesce(',"frac":' || p.edge_fraction::text, '')
      || ',"r":' || pg_catalog.to_json(p.resort_id)::text || '}'
  $$;

-- Why a position sample is refused: raises the first rule it breaks, in the
-- order a person would fix them. broadcast_position calls it only once its
-- one combined test failed, so the publish path pays for a single test.
create or replace function private.refuse_position(
  p_resort_id text, p_lat double precision, p_lon double precision, p_captured_at timestamptz,
  p_accuracy_m double precision, p_altitude_m double precision, p_speed_mps double precision,
  p_heading_deg double precision, p_node_id text, p_edge_id text, p_edge_fraction double precision,
  p_now timestamptz
) returns void
  language plpgsql stable
  set search_path = ''
  as $$
begin
  perform private.require_signed_in();
  if p_resort_id is null or p_resort_id !~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,51}$' then
    perform private.fail('resort_id_invalid',
      'Give the selected resort''s id: 1 to 52 characters of A-Z, a-z, 0-9, _ . -, starting with a letter or digit.');
  end if;
  if p_lat is null or not (p_lat between -90 and 90) or p_lon is null or not (p_lon between -180 and 180) then
    perform private.fail('position_out_of_range', 'Latitude must be within -90..90 and longitude within -180..180 degrees.');
  end if;
  if p_captured_at is null then
    perform private.fail('captured_at_missing', 'Send the GPS sample''s own capture time.');
  end if;
  if p_captured_at > p_now + meet.max_future_skew() then
    perform private.fail('captured_at_in_future', format(
      'The capture time is %s s ahead of the server''s clock (at most %s s allowed): send the GPS fix''s own timestamp and check the device clock.',
      round(extract(epoch from p_captured_at - p_now)::numeric, 1), extract(epoch from meet.max_future_skew())::int));
  end if;
  if p_captured_at < p_now - meet.presence_ttl() then
    perform private.fail('captured_at_too_old', format(
      'The sample is %s s old; positions older than %s min are not shared. Send a current fix.',
      round(extract(epoch from p_now - p_captured_at)::numeric), extract(epoch from meet.presence_ttl())::int / 60));
  end if;
  if p_accuracy_m is not null and not (p_accuracy_m > 0 and p_accuracy_m <= 10000) then
    perform private.fail('accuracy_out_of_range', 'Horizontal accuracy is metres, above 0 and at most 10000; leave it out when unknown.');
  end if;
  if p_altitude_m is not null and not (p_altitude_m between -500 and 9000) then
    perform private.fail('altitude_out_of_range', 'Altitude is metres within -500..9000; leave it out when unknown.');
  end if;
  if p_speed_mps is not null and not (p_speed_mps between 0 and 100) then
    perform private.fail('speed_out_of_range', 'Speed is metres per second within 0..100; leave it out when unknown.');
  end if;
  if p_heading_deg is not null and not (p_heading_deg >= 0 and p_heading_deg < 360) then
    perform private.fail('heading_out_of_range', 'Heading is degrees from 0 up to (not including) 360; leave it out when unknown.');
  end if;
  if p_node_id is not null and p_node_id !~ '^[A-Za-z0-9_.:-]{1,64}$' then
    perform private.fail('node_id_invalid', 'A node id is 1 to 64 characters of A-Z, a-z, 0-9, _ . : -.');
  end if;
  if p_edge_id is not null and p_edge_id !~ '^[A-Za-z0-9_.:-]{1,64}$' then
    perform private.fail('edge_id_invalid', 'An edge id is 1 to 64 characters of A-Z, a-z, 0-9, _ . : -.');
  end if;
  if p_edge_fraction is not null and (p_edge_id is null or not (p_edge_fraction between 0 and 1)) then
    perform private.fail('edge_fraction_invalid', 'An edge fraction goes with an edge id and lies within 0..1.');
  end if;
  perform private.fail('position_invalid', 'Check the sample''s fields against meet.broadcast_position''s rules.');
end
$$;

-- Publish the caller's newest position sample.
--
-- Refuses bad input before anything is written; ignores (without notifying) a
-- sample not newer than the stored one, since the capture time is the sender's
-- and a late packet must never move a skier backwards; otherwise stores it and
-- notifies pos:cell:{geohash6} and pos:resort:{resort_id}.
--
-- This is the hot path of the realtime relay, so it does the least it can:
-- one combined test of every rule (refuse_position explains a failure), one
-- update (a HOT update of an unlogged row; the profile is read only for a
-- sender's first row), one statement for both notifications. The commit does not wait for its WAL
-- flush: a position is ephemeral, the next sample replaces it within seconds,
-- and a crash can only lose the newest fraction of a second of them. This
-- holds for the caller's transaction, which through the gateway is this call.
create or replace function meet.broadcast_position(
  p_resort_id text,
  p_lat double precision,
  p_lon double precision,
  p_captured_at timestamptz,
  p_accuracy_m double precision default null,
  p_altitude_m double precision default null,
  p_speed_mps double precision default null,
  p_heading_deg double precision default null,
  p_node_id text default null,
  p_edge_id text default null,
  p_edge_fraction double precision default null
) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_now timestamptz := summit.now();
  v_row meet.live_presence;
  v_stored timestamptz;
  v_packet text;
begin
  if not coalesce(
       v_uid is not null and coalesce(auth.role(), 'authenticated') <> 'anon'
       and p_resort_id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,51}$'
       and p_lat between -90 and 90 and p_lon between -180 and 180
       and p_captured_at between v_now - meet.presence_ttl() and v_now + meet.max_future_skew()
       and (p_accuracy_m is null or (p_accuracy_m > 0 and p_accuracy_m <= 10000))
       and (p_altitude_m is null or p_altitude_m between -500 and 9000)
       and (p_speed_mps is null or p_speed_mps between 0 and 100)
       and (p_heading_deg is null or (p_heading_deg >= 0 and p_heading_deg < 360))
       and (p_node_id is null or p_node_id ~ '^[A-Za-z0-9_.:-]{1,64}$')
       and (p_edge_id is null or p_edge_id ~ '^[A-Za-z0-9_.:-]{1,64}$')
       and (p_edge_fraction is null or (p_edge_id is not null and p_edge_fraction between 0 and 1)),
       false) then
    perform private.refuse_position(p_resort_id, p_lat, p_lon, p_captured_at, p_accuracy_m, p_altitude_m,
      p_speed_mps, p_heading_deg, p_node_id, p_edge_id, p_edge_fraction, v_now);
  end if;

  -- Nearly every sample replaces the sender's row: try that first (a HOT update).
  update meet.live_presence as stored
    set resort_id = p_resort_id, lat = p_lat, lon = p_lon, accuracy_m = p_accuracy_m, altitude_m = p_altitude_m,
        speed_mps = p_speed_mps, heading_deg = p_heading_deg, node_id = p_node_id, edge_id = p_edge_id,
        edge_fraction = p_edge_fraction, geohash6 = private.geohash6(p_lat, p_lon),
        captured_at = p_captured_at, received_at = v_now
    where stored.user_id = v_uid and stored.captured_at < p_captured_at
  returning * into v_row;
  if v_row.user_id is null then
    -- Either the stored sample is as new or newer (ignore this one), or there is none yet.
    select l.captured_at into v_stored from meet.live_presence l where l.user_id = v_uid;
    if v_stored is not null then
      return jsonb_build_object('status', 'ignored', 'reason', 'not_newer', 'stored_captured_at', v_stored);
    end if;
    if not exists (select 1 from social.profiles p where p.id = v_uid) then
      perform private.fail('no_profile', 'Choose a username first (claim_username).');
    end if;
    insert into meet.live_presence as stored (user_id, resort_id, lat, lon, accuracy_m, altitude_m, speed_mps,
      heading_deg, node_id, edge_id, edge_fraction, geohash6, captured_at, received_at)
    values (v_uid, p_resort_id, p_lat, p_lon, p_accuracy_m, p_altitude_m, p_speed_mps, p_heading_deg,
      p_node_id, p_edge_id, p_edge_fraction, private.geohash6(p_lat, p_lon), p_captured_at, v_now)
    -- A first sample racing another first sample of the same sender: the newer one stays.
    on conflict (user_id) do update
      set resort_id = excluded.resort_id, lat = excluded.lat, lon = excluded.lon,
          accuracy_m = excluded.accuracy_m, altitude_m = excluded.altitude_m, speed_mps = excluded.speed_mps,
          heading_deg = excluded.heading_deg, node_id = excluded.node_id, edge_id = excluded.edge_id,
          edge_fraction = excluded.edge_fraction, geohash6 = excluded.geohash6,
          captured_at = excluded.captured_at, received_at = excluded.received_at
      where stored.captured_at < excluded.captured_at
    returning * into v_row;
    if v_row.user_id is null then
      return jsonb_build_object('status', 'ignored', 'reason', 'not_newer', 'stored_captured_at',
        (select l.captured_at from meet.live_presence l where l.user_id = v_uid));
    end if;
  end if;

  v_packet := private.position_packet(v_row);
  perform set_config('synchronous_commit', 'off', true),
    pg_notify('pos:cell:' || v_row.geohash6, v_packet), pg_notify('pos:resort:' || p_resort_id, v_packet);
  return jsonb_build_object('status', 'published', 'geohash6', v_row.geohash6,
    'channels', jsonb_build_array('pos:cell:' || v_row.geohash6, 'pos:resort:' || p_resort_id),
    'packet_bytes', octet_length(v_packet));
end
$$;

-- Stop sharing now: the caller's stored position goes (friends' relays keep
-- what they already have until it ages out).
create or replace function meet.clear_my_position() returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_signed_in();
begin
  delete from meet.live_presence where user_id = v_uid;
  return found;
end
$$;

-- Removes positions the server has not heard about for presence_ttl(); returns
-- how many. The worker runs it every 5 minutes (`summit worker`); without the
-- worker, schedule `select meet.sweep_live_presence()` as the service role
-- (pg_cron: `select cron.schedule('*/5 * * * *', 'select meet.sweep_live_presence()')`).
create or replace function meet.sweep_live_presence() returns int
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_count int;
begin
  delete from meet.live_presence where received_at < summit.now() - meet.presence_ttl();
  get diagnostics v_count = row_count;
  return v_count;
end
$$;

revoke all on function meet.presence_ttl(), meet.max_future_skew(), private.my_unblocked_friend_ids(),
  private.position_packet(meet.live_presence),
  private.refuse_position(text, double precision, double precision, timestamptz, double precision, double precision,
    double precision, double precision, text, text, double precision, timestamptz),
  meet.broadcast_position(text, double precision, double precision, timestamptz, double precision,
    double precision, double precision, double precision, text, text, double precision),
  meet.clear_my_position(), meet.sweep_live_presence()
  from public;
grant execute on function meet.presence_ttl(), meet.max_future_skew() to anon, authenticated, service_role;
-- The friend-read policy runs as the reader.
grant execute on function private.my_unblocked_friend_ids() to authenticated;
grant execute on function
  meet.broadcast_position(text, double precision, double precision, timestamptz, double precision,
    double precision, double precision, double precision, text, text, double precision),
  meet.clear_my_position()
  to authenticated;
grant execute on function meet.sweep_live_presence() to service_role;
