-- The PowderMeet face (migration 0108): the app's tables and functions by its
-- own names, over the core. The rules stay in the core — who sees a profile,
-- friends only, blocks — and the face translates names and shapes. Views that
-- must show more than the core's own-row RLS does (other people's profiles)
-- run as their owner behind security_barrier and filter by one visibility rule,
-- private.powdermeet_relation; the rest are security_invoker.

-- ------------------------------------------------------------ core extensions

drop policy if exists rider_profiles_own_read on meet.rider_profiles;
create policy rider_profiles_own_read on meet.rider_profiles
  for select to authenticated using (user_id = (select auth.uid()));

drop policy if exists ski_models_read on activity.ski_models;
create policy ski_models_read on activity.ski_models for select to anon, authenticated using (true);

-- ------------------------------------------------------------ profiles

-- How the signed-in caller relates to `p_other` for the app: self; friend; member
-- (anyone else signed in, for the friend search by display name); nothing when
-- either blocked the other, and nothing to the anon key.
create or replace function private.powdermeet_relation(p_other uuid) returns text
  language sql stable security definer
  set search_path = ''
  as $$
    select case
      when auth.uid() is null then null
      when p_other = auth.uid() then 'self'
      when private.blocked_pair(auth.uid(), p_other) then null
      when private.is_friend(auth.uid(), p_other) then 'friend'
      else 'member' end
  $$;

-- The app makes no username: a person's core profile gets one derived from the id.
create or replace function private.powdermeet_username(p_user uuid) returns text
  language sql immutable
  set search_path = ''
  as $$ select 'u' || substr(replace(p_user::text, '-', ''), 1, 18) $$;

-- The name given at sign-up (`data.display_name`), as one line a profile may hold.
create or replace function private.powdermeet_signup_name(p_metadata jsonb) returns text
  language sql immutable
  set search_path = ''
  as $$ select coalesce(left(regexp_replace(btrim(p_metadata ->> 'display_name'), '[\r\n]+', ' ', 'g'), 50), '') $$;

-- The caller's core profile, made on first use from the name given at sign-up.
create or replace function private.powdermeet_ensure_profile() returns uuid
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_signed_in();
begin
  insert into social.profiles (id, username, display_name)
  select u.id, private.powdermeet_username(u.id),
         private.powdermeet_signup_name(u.raw_user_meta_data)
  from auth.users u where u.id = v_uid
  on conflict (id) do nothing;
  insert into meet.rider_profiles (user_id) values (v_uid) on conflict (user_id) do nothing;
  return v_uid;
end
$$;

-- One row per person the caller may see; what a row shows depends on the relation:
-- everything to oneself; to a friend all but height, weight and what the app
-- records; to anyone else the name, skill and the comfort the solver needs. A
-- person who signed up and has not saved a profile yet sees a row of defaults
-- (with the name given at sign-up), as the app expects one to exist.
create or replace view powdermeet.profiles with (security_barrier = true) as
  select p.id, p.display_name,
         case when v.rel in ('self', 'friend') then r.avatar_url end as avatar_url,
         case when v.rel in ('self', 'friend') then p.current_resort_id end as current_resort_id,
         coalesce(p.skill_level, 'intermediate') as skill_level,
         case when v.rel in ('self', 'friend') then r.speed_green end as speed_green,
         case when v.rel in ('self', 'friend') then r.speed_blue end as speed_blue,
         case when v.rel in ('self', 'friend') then r.speed_black end as speed_black,
         case when v.rel in ('self', 'friend') then r.speed_double_black end as speed_double_black,
         case when v.rel in ('self', 'friend') then r.speed_terrain_park end as speed_terrain_park,
         coalesce(r.condition_moguls, 0.5) as condition_moguls,
         coalesce(r.condition_ungroomed, 0.5) as condition_ungroomed,
         coalesce(r.condition_icy, 0.5) as condition_icy,
         coalesce(r.condition_gladed, 0.5) as condition_gladed,
         case when v.rel in ('self', 'friend') then r.max_comfortable_gradient_degrees end as max_comfortable_gradient_degrees,
         case when v.rel in ('self', 'friend') then r.mogul_tolerance end as mogul_tolerance,
         case when v.rel in ('self', 'friend') then r.narrow_trail_tolerance end as narrow_trail_tolerance,
         case when v.rel in ('self', 'friend') then r.exposure_tolerance end as exposure_tolerance,
         case when v.rel in ('self', 'friend') then r.crust_condition_tolerance end as crust_condition_tolerance,
         case when v.rel = 'self' then coalesce(r.live_recording_enabled, true) end as live_recording_enabled,
         case when v.rel = 'self' then r.height_cm end as height_cm,
         case when v.rel = 'self' then r.weight_kg end as weight_kg,
         case when v.rel in ('self', 'friend') then r.preferred_ski_id end as preferred_ski_id,
         coalesce(r.onboarding_completed, false) as onboarding_completed,
         case when v.rel in ('self', 'friend') then p.created_at end as created_at,
         case when v.rel in ('self', 'friend') then greatest(p.updated_at, r.updated_at) end as updated_at
  from (select sp.id, sp.display_name, sp.skill_level, sp.current_resort_id, sp.created_at, sp.updated_at
        from social.profiles sp
        union all
        select u.id, private.powdermeet_signup_name(u.raw_user_meta_data),
               null, null, u.created_at, u.created_at
        from auth.users u
        where u.id = auth.uid() and not exists (select 1 from social.profiles sp where sp.id = u.id)) p
  left join meet.rider_profiles r on r.user_id = p.id
  cross join lateral (select private.powdermeet_relation(p.id) as rel) v
  where v.rel is not null;

-- Writes to one's own row (P2's insert, P4/P5's partial and whole updates): the
-- core profile made if need be, then its fields and the rider's. Another
-- person's row is left as it was (no row changes, as RLS would answer).
create or replace function private.powdermeet_profiles_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_signed_in();
  v_name text := btrim(new.display_name);
begin
  if new.id is distinct from v_uid or (tg_op = 'UPDATE' and old.id is distinct from v_uid) then
    if tg_op = 'INSERT' then
      perform private.fail('not_allowed', 'A profile is saved for the signed-in user only: send your own id.');
    end if;
    return null;
  end if;
  if v_name is null or char_length(v_name) not between 1 and 50 or v_name ~ '[\r\n]' then
    perform private.fail('display_name_invalid', 'A display name is one line of 1 to 50 characters.');
  end if;
  if new.skill_level is not null and new.skill_level not in ('beginner', 'intermediate', 'advanced', 'expert') then
    perform private.fail('skill_level_invalid', 'Use beginner, intermediate, advanced or expert.');
  end if;
  if new.current_resort_id is not null and char_length(new.current_resort_id) not between 1 and 100 then
    perform private.fail('resort_id_invalid', 'A resort id is 1 to 100 characters.');
  end if;
  perform private.powdermeet_ensure_profile();
  update social.profiles set display_name = v_name, skill_level = coalesce(new.skill_level, 'intermediate'),
    current_resort_id = new.current_resort_id, updated_at = summit.now()
  where id = v_uid;
  begin
    update meet.rider_profiles set
      avatar_url = new.avatar_url, speed_green = new.speed_green, speed_blue = new.speed_blue,
      speed_black = new.speed_black, speed_double_black = new.speed_double_black,
      speed_terrain_park = new.speed_terrain_park,
      condition_moguls = coalesce(new.condition_moguls, 0.5), condition_ungroomed = coalesce(new.condition_ungroomed, 0.5),
      condition_icy = coalesce(new.condition_icy, 0.5), condition_gladed = coalesce(new.condition_gladed, 0.5),
      max_comfortable_gradient_degrees = new.max_comfortable_gradient_degrees, mogul_tolerance = new.mogul_tolerance,
      narrow_trail_tolerance = new.narrow_trail_tolerance, exposure_tolerance = new.exposure_tolerance,
      crust_condition_tolerance = new.crust_condition_tolerance,
      live_recording_enabled = coalesce(new.live_recording_enabled, true),
      height_cm = new.height_cm, weight_kg = new.weight_kg, preferred_ski_id = new.preferred_ski_id,
      onboarding_completed = coalesce(new.onboarding_completed, false), updated_at = summit.now()
    where user_id = v_uid;
  exception when check_violation then
    perform private.fail('profile_value_invalid',
      'Speeds are 0 to 60 m/s, conditions and tolerances 0 to 1, gradients 0 to 90 degrees, height 50 to 260 cm, '
      || 'weight 20 to 350 kg, avatar_url an http(s) URL.');
  end;
  -- Answered as the view shows it now (Prefer: return=representation).
  select * into new from powdermeet.profiles where id = v_uid;
  return new;
end
$$;

drop trigger if exists profiles_write on powdermeet.profiles;
create trigger profiles_write instead of insert or update on powdermeet.profiles
  for each row execute function private.powdermeet_profiles_write();

-- R1: whether a display name is in use (case-insensitive), asked before an account exists.
create or replace function powdermeet.is_display_name_taken(p_name text) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select exists (select 1 from social.profiles
                   where lower(display_name) = lower(btrim(coalesce(p_name, '')))
                     and id is distinct from auth.uid())
  $$;

-- ------------------------------------------------------------ blocks

-- B1–B3: the blocks one made, in the app's names; writes go through the core's RPCs.
create or replace view powdermeet.user_blocks with (security_invoker = true) as
  select b.blocker_id, b.blocked_id as blockee_id, b.created_at from social.blocks b;

create or replace function private.powdermeet_user_blocks_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
begin
  if tg_op = 'INSERT' then
    if new.blocker_id is distinct from v_uid then
      perform private.fail('not_allowed', 'blocker_id must be your own id.');
    end if;
    perform social.block_user(new.blockee_id);
    return new;
  end if;
  if old.blocker_id is distinct from v_uid then
    return null;
  end if;
  perform social.unblock_user(old.blockee_id);
  return old;
end
$$;

drop trigger if exists user_blocks_write on powdermeet.user_blocks;
create trigger user_blocks_write instead of insert or delete on powdermeet.user_blocks
  for each row execute function private.powdermeet_user_blocks_write();

-- ------------------------------------------------------------ friendships

-- F1–F7: requests and friendships as one relation, as the app has them: a pending
-- row per open request (the request's id; its sender never learns that a block
-- hid it), an accepted row per friendship (the id and direction of the request
-- that made it, or of the pair when a friend code did). Only one's own rows.
create or replace view powdermeet.friendships with (security_barrier = true) as
  select r.id, r.from_id as requester_id, r.to_id as addressee_id, 'pending'::text as status, r.created_at
  from social.friend_requests r
  where r.status = 'pending'
    and not exists (select 1 from social.friendships f
                    where f.user_a = least(r.from_id, r.to_id) and f.user_b = greatest(r.from_id, r.to_id))
    and (r.from_id = auth.uid() or (r.to_id = auth.uid() and not r.suppressed))
  union all
  select coalesce(m.id, md5(f.user_a::text || f.user_b::text)::uuid), coalesce(m.from_id, f.user_a),
         coalesce(m.to_id, f.user_b), 'accepted', f.created_at
  from social.friendships f
  left join lateral (select r.id, r.from_id, r.to_id from social.friend_requests r
                     where r.status = 'accepted' and least(r.from_id, r.to_id) = f.user_a
                       and greatest(r.from_id, r.to_id) = f.user_b
                     order by r.responded_at desc nulls last limit 1) m on true
  where f.user_a = auth.uid() or f.user_b = auth.uid();

-- Writes onto the core's RPCs: a new pending row asks (as R3), accepting answers, deleting
-- declines, cancels or unfriends by what the row is and who the caller is in it.
create or replace function private.powdermeet_friendships_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
begin
  if tg_op = 'INSERT' then
    if new.requester_id is distinct from v_uid or coalesce(new.status, 'pending') <> 'pending' then
      perform private.fail('not_allowed', 'Send a request as yourself (requester_id your id, status pending).');
    end if;
    perform social.send_friend_request(new.addressee_id);
    return new;
  end if;
  if tg_op = 'UPDATE' then
    if new.status is distinct from old.status then
      if old.status <> 'pending' or old.addressee_id <> v_uid or new.status not in ('accepted', 'declined') then
        perform private.fail('not_allowed', 'Only the person asked answers a pending request, with accepted or declined.');
      end if;
      perform social.respond_friend_request(old.id, new.status = 'accepted');
    end if;
    new.status := case when new.status = 'accepted' then 'accepted' else old.status end;
    return new;
  end if;
  if old.status = 'accepted' then
    perform social.remove_friend(case when old.requester_id = v_uid then old.addressee_id else old.requester_id end);
  elsif old.requester_id = v_uid then
    perform social.cancel_friend_request(old.id);
  else
    perform social.respond_friend_request(old.id, false);
  end if;
  return old;
end
$$;

drop trigger if exists friendships_write on powdermeet.friendships;
create trigger friendships_write instead of insert or update or delete on powdermeet.friendships
  for each row execute function private.powdermeet_friendships_write();

-- R3.
create or replace function powdermeet.send_friend_request(p_addressee_id uuid) returns text
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.powdermeet_ensure_profile();
  return social.send_friend_request(p_addressee_id);
end
$$;

-- R2: the snapshot in the app's shape: the generation, friends as the app lists them,
-- and the pending rows of `friendships` both ways. `p_resort_id` is taken and
-- changes nothing: every friend comes back with their current resort, and the app
-- picks those at its own.
create or replace function powdermeet.get_social_snapshot(p_resort_id text default null) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
begin
  return jsonb_build_object(
    'generation', coalesce((select generation from social.social_generations where user_id = v_uid), 1),
    'friends', coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                 'id', p.id, 'display_name', p.display_name, 'avatar_url', p.avatar_url, 'skill_level', p.skill_level,
                 'current_resort_id', p.current_resort_id, 'preferred_ski_id', p.preferred_ski_id)) order by p.display_name, p.id)
               from powdermeet.profiles p where private.powdermeet_relation(p.id) = 'friend'), '[]'::jsonb),
    'pending_received', coalesce((select jsonb_agg(to_jsonb(f) order by f.created_at) from powdermeet.friendships f
                                  where f.status = 'pending' and f.addressee_id = v_uid), '[]'::jsonb),
    'pending_sent', coalesce((select jsonb_agg(to_jsonb(f) order by f.created_at) from powdermeet.friendships f
                              where f.status = 'pending' and f.requester_id = v_uid), '[]'::jsonb));
end
$$;

-- R4, R5: the people whose address or number is in the caller's contacts and who
-- allowed being found by it (the core's rule), as profiles.
create or replace function powdermeet.find_users_by_emails(emails text[]) returns setof powdermeet.profiles
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.powdermeet_ensure_profile();
  return query select p.* from powdermeet.profiles p
    where p.id in (select f.user_id from social.find_users_by_emails(emails) f);
end
$$;

create or replace function powdermeet.find_users_by_phones(phones text[]) returns setof powdermeet.profiles
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.powdermeet_ensure_profile();
  return query select p.* from powdermeet.profiles p
    where p.id in (select f.user_id from social.find_users_by_phones(phones) f);
end
$$;

-- ------------------------------------------------------------ imported runs

-- I1–I9: one's own runs as the app reads them. A run the app inserts goes through the
-- core's save (duplicates skipped, stats recomputed), ending `duration_s` after it
-- starts; the app renames a run's trail; deleting uses the core's own-row RLS.
create or replace view powdermeet.imported_runs with (security_invoker = true) as
  select id, profile_id, resort_id, edge_id, difficulty, coalesce(speed_ms, 0) as speed_ms, peak_speed_ms, duration_s,
         vertical_m, distance_m, coalesce(max_grade_deg, 0) as max_grade_deg, run_at, created_at, source, trail_name,
         dedup_hash, source_file_hash, conditions_fp
  from activity.imported_runs;

create or replace function private.powdermeet_imported_runs_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
  v_saved jsonb;
begin
  if tg_op = 'INSERT' then
    if new.profile_id is distinct from v_uid then
      perform private.fail('not_allowed', 'Import runs as yourself: profile_id must be your own id.');
    end if;
    if new.run_at is null or new.duration_s is null then
      perform private.fail('run_invalid', 'Each run needs run_at and duration_s.');
    end if;
    -- A duplicate is skipped (the core's rule), whichever resolution an upsert asked for:
    -- a run is the same physical run however often it is sent.
    v_saved := activity.save_imported_runs(jsonb_build_array(jsonb_strip_nulls(to_jsonb(new))
      || jsonb_build_object('ended_at', new.run_at + make_interval(secs => new.duration_s))));
    if (v_saved ->> 'inserted')::int = 0 then
      return null;
    end if;
    select * into new from powdermeet.imported_runs where id = (v_saved -> 'ids' ->> 0)::uuid;
    return new;
  end if;
  if old.profile_id is distinct from v_uid then
    return null;
  end if;
  -- Only the trail's name is the app's to change after the import.
  update activity.imported_runs set trail_name = new.trail_name where id = old.id and profile_id = v_uid;
  return new;
end
$$;

drop trigger if exists imported_runs_write on powdermeet.imported_runs;
create trigger imported_runs_write instead of insert or update on powdermeet.imported_runs
  for each row execute function private.powdermeet_imported_runs_write();

-- ------------------------------------------------------------ meet requests

-- M1–M8: a party's requests as the app decodes them. The app's insert carries no
-- dataset identity, so it is kept as a legacy request (migration 0109): friends
-- only, on the server's 30 minutes, never canonical. Answers and ETA updates run
-- as the caller through the core's state machine and RLS.
create or replace view powdermeet.meet_requests with (security_invoker = true) as
  select id, sender_id, receiver_id, resort_id, meeting_node_id, coalesce(meeting_node_elevation, 0) as meeting_node_elevation,
         meeting_node_display_name, sender_position_node_id, receiver_position_node_id, sender_eta_seconds,
         receiver_eta_seconds, sender_path_edge_ids, receiver_path_edge_ids, status, created_at, expires_at,
         graph_snapshot_date::text as graph_snapshot_date, manifest_version, dataset_version
  from meet.meet_requests;

create or replace function private.powdermeet_meet_requests_insert() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
  v_id uuid;
begin
  if new.sender_id is distinct from v_uid then
    perform private.fail('not_sender', 'A meet request is sent by the signed-in user as sender_id.');
  end if;
  if new.graph_snapshot_date is not null and new.graph_snapshot_date !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
    perform private.fail('invalid_meet_plan', 'graph_snapshot_date is a date, YYYY-MM-DD.');
  end if;
  insert into meet.meet_requests (sender_id, receiver_id, resort_id, meeting_node_id, meeting_node_elevation,
      meeting_node_display_name, sender_position_node_id, receiver_position_node_id, sender_start, receiver_start,
      sender_eta_seconds, receiver_eta_seconds, sender_path_edge_ids, receiver_path_edge_ids, status,
      created_at, expires_at, updated_at, graph_snapshot_date, manifest_version)
  values (v_uid, new.receiver_id, new.resort_id, new.meeting_node_id, new.meeting_node_elevation,
      new.meeting_node_display_name, new.sender_position_node_id, new.receiver_position_node_id,
      case when new.sender_position_node_id is not null then jsonb_build_object('node', new.sender_position_node_id) end,
      case when new.receiver_position_node_id is not null then jsonb_build_object('node', new.receiver_position_node_id) end,
      new.sender_eta_seconds, new.receiver_eta_seconds, new.sender_path_edge_ids, new.receiver_path_edge_ids, 'pending',
      summit.now(), summit.now() + meet.request_ttl(), summit.now(), new.graph_snapshot_date::date, new.manifest_version)
  returning id into v_id;
  select * into new from powdermeet.meet_requests where id = v_id;
  return new;
end
$$;

-- As the caller (not definer): the core's transition trigger and RLS decide who may do what.
create or replace function private.powdermeet_meet_requests_update() returns trigger
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  update meet.meet_requests set status = new.status,
    sender_eta_seconds = new.sender_eta_seconds, receiver_eta_seconds = new.receiver_eta_seconds,
    sender_path_edge_ids = coalesce(new.sender_path_edge_ids, '{}'), receiver_path_edge_ids = coalesce(new.receiver_path_edge_ids, '{}'),
    sender_position_node_id = new.sender_position_node_id, receiver_position_node_id = new.receiver_position_node_id
  where id = old.id;
  if not found then
    return null;
  end if;
  select * into new from powdermeet.meet_requests where id = old.id;
  return new;
end
$$;

drop trigger if exists meet_requests_insert on powdermeet.meet_requests;
create trigger meet_requests_insert instead of insert on powdermeet.meet_requests
  for each row execute function private.powdermeet_meet_requests_insert();
drop trigger if exists meet_requests_update on powdermeet.meet_requests;
create trigger meet_requests_update instead of update on powdermeet.meet_requests
  for each row execute function private.powdermeet_meet_requests_update();

-- ------------------------------------------------------------ live presence and devices

-- L1–L3: positions the caller may see (the core's RLS: one's own and unblocked
-- friends'); publishing and clearing go through the core's RPCs, which check the
-- packet and keep the newest sample. An upsert (L2) is the same publish.
create or replace view powdermeet.live_presence with (security_invoker = true) as
  select user_id, resort_id, lat, lon, captured_at, accuracy_m, node_id from meet.live_presence;

create or replace function private.powdermeet_live_presence_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
begin
  if tg_op = 'INSERT' then
    if new.user_id is distinct from v_uid then
      perform private.fail('not_allowed', 'Publish your own position: user_id must be your own id.');
    end if;
    perform meet.broadcast_position(new.resort_id, new.lat, new.lon, new.captured_at, new.accuracy_m, p_node_id => new.node_id);
    select * into new from powdermeet.live_presence where user_id = v_uid;
    return new;
  end if;
  if old.user_id is distinct from v_uid then
    return null;
  end if;
  perform meet.clear_my_position();
  return old;
end
$$;

drop trigger if exists live_presence_write on powdermeet.live_presence;
create trigger live_presence_write instead of insert or delete on powdermeet.live_presence
  for each row execute function private.powdermeet_live_presence_write();

-- D1: one's own APNs tokens; registering (and moving a token to a new owner) is the core's.
create or replace view powdermeet.device_tokens with (security_invoker = true) as
  select id, profile_id, token, platform, environment, created_at, updated_at from social.device_tokens;

create or replace function private.powdermeet_device_tokens_write() returns trigger
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.powdermeet_ensure_profile();
begin
  if new.profile_id is distinct from v_uid then
    perform private.fail('not_allowed', 'Register a device for yourself: profile_id must be your own id.');
  end if;
  perform social.register_device_token(new.token, new.environment, new.platform);
  select * into new from powdermeet.device_tokens where token = lower(btrim(new.token));
  return new;
end
$$;

drop trigger if exists device_tokens_write on powdermeet.device_tokens;
create trigger device_tokens_write instead of insert on powdermeet.device_tokens
  for each row execute function private.powdermeet_device_tokens_write();

-- ------------------------------------------------------------ stats and learned speeds

-- S1: one's own and friends' rollups (the core's RLS), with zeros where the app needs numbers.
create or replace view powdermeet.profile_stats with (security_invoker = true) as
  select profile_id, days_skied, runs_count, vertical_m, coalesce(top_speed_ms, 0) as top_speed_ms, total_duration_s,
         total_distance_m, coalesce(top_grade_deg, 0) as top_grade_deg, coalesce(avg_speed_ms, 0) as avg_speed_ms, last_import_at
  from activity.profile_stats;

-- E1: the learned per-edge speeds (the core's RLS: one's own and friends').
create or replace view powdermeet.profile_edge_speeds with (security_invoker = true) as
  select profile_id, resort_id, edge_id, conditions_fp, equipment_key, observation_count, rolling_speed_ms,
         rolling_peak_ms, coalesce(rolling_duration_s, 0) as rolling_duration_s, rolling_speed_variance_ms2, last_observed_at
  from activity.profile_edge_speeds;

-- R6, R7: the app names the person as `uid`; the core recomputes only the caller's own.
create or replace function powdermeet.recompute_profile_stats(uid uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  if uid is distinct from private.powdermeet_ensure_profile() then
    perform private.fail('not_allowed', 'Recompute your own stats: send your own id as uid.');
  end if;
  perform activity.recompute_profile_stats(uid);
end
$$;

create or replace function powdermeet.recompute_profile_edge_speeds(uid uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  if uid is distinct from private.powdermeet_ensure_profile() then
    perform private.fail('not_allowed', 'Recompute your own edge speeds: send your own id as uid.');
  end if;
  perform activity.recompute_profile_edge_speeds(uid);
end
$$;

-- R8: the core's account deletion, under the app's name.
create or replace function powdermeet.delete_user_account() returns jsonb
  language sql volatile security definer
  set search_path = ''
  as $$ select social.delete_account() $$;

-- ------------------------------------------------------------ catalog and mountain

create or replace view powdermeet.skis_catalog with (security_invoker = true) as
  select id, brand, model, category, waist_width_mm, topsheet_asset_key from activity.ski_models;

-- SP1: the snapshot each resort is pinned to, for anyone (the app asks before sign-in).
create or replace view powdermeet.resort_snapshot_pins with (security_barrier = true) as
  select resort_id, snapshot_date from mountain.resort_snapshot_pins;

-- CM1: which resorts have an active canonical publication, and its identity, for
-- anyone (the core's view of the same, security_invoker, is for signed-in callers).
create or replace view powdermeet.current_resort_canonical_manifest with (security_barrier = true) as
  select a.resort_id, p.manifest_version, p.graph_version, p.snapshot_date,
         mountain.dataset_version(p.manifest_version, p.graph_version, p.content_sha256) as dataset_version,
         p.content_sha256, a.activated_at
  from mountain.resort_canonical_active a
  join mountain.resort_canonical_publication p on p.id = a.publication_id;

-- The seed's resolve_resort_id: the resort at a position, or by name or alias.
create or replace function powdermeet.resolve_resort_id(p_lat double precision, p_lon double precision) returns text
  language sql stable set search_path = '' as $$ select mountain.resolve_resort_id(p_lat, p_lon) $$;
create or replace function powdermeet.resolve_resort_id(p_name text) returns text
  language sql stable set search_path = '' as $$ select mountain.resolve_resort_id(p_name) $$;

-- ------------------------------------------------------------ avatars

-- ST1–ST3: one picture per person at `<own id>/avatar.jpg` in the public bucket
-- (migration 0110): anyone may look at it, only its person may put or remove it.
drop policy if exists objects_powdermeet_avatars_read on storage.objects;
create policy objects_powdermeet_avatars_read on storage.objects for select to anon, authenticated
  using (bucket_id = 'powdermeet-avatars');
drop policy if exists objects_powdermeet_avatars_insert on storage.objects;
create policy objects_powdermeet_avatars_insert on storage.objects for insert to authenticated
  with check (bucket_id = 'powdermeet-avatars' and name = (select auth.uid())::text || '/avatar.jpg');
drop policy if exists objects_powdermeet_avatars_update on storage.objects;
create policy objects_powdermeet_avatars_update on storage.objects for update to authenticated
  using (bucket_id = 'powdermeet-avatars' and name = (select auth.uid())::text || '/avatar.jpg')
  with check (bucket_id = 'powdermeet-avatars' and name = (select auth.uid())::text || '/avatar.jpg');
drop policy if exists objects_powdermeet_avatars_delete on storage.objects;
create policy objects_powdermeet_avatars_delete on storage.objects for delete to authenticated
  using (bucket_id = 'powdermeet-avatars' and name = (select auth.uid())::text || '/avatar.jpg');

-- ------------------------------------------------------------ realtime

-- RT1, RT2: changes told as the face's rows (private.realtime_change with '@'): the
-- subscriber re-reads powdermeet.friendships / meet_requests by the key, as itself.
-- A request's insert and answer are the friendship row's; an unfriending is its delete.
drop trigger if exists realtime_changes_as_friendships on social.friend_requests;
create trigger realtime_changes_as_friendships after insert or update on social.friend_requests
  for each row execute function private.realtime_change('@powdermeet.friendships', 'id', 'from_id', 'to_id');
drop trigger if exists realtime_changes_as_friendships on social.friendships;
create trigger realtime_changes_as_friendships after delete on social.friendships
  for each row execute function private.realtime_change('@powdermeet.friendships', 'user_a,user_b', 'user_a', 'user_b');
drop trigger if exists realtime_changes_as_meet_requests on meet.meet_requests;
create trigger realtime_changes_as_meet_requests after insert or update or delete on meet.meet_requests
  for each row execute function private.realtime_change('@powdermeet.meet_requests', 'id', 'sender_id', 'receiver_id');

revoke all on all tables in schema powdermeet from anon, authenticated;
grant select, insert, update on powdermeet.profiles to authenticated;
grant select, insert, delete on powdermeet.user_blocks to authenticated;
grant select, insert, update, delete on powdermeet.friendships to authenticated;
grant select on powdermeet.profile_stats, powdermeet.profile_edge_speeds to authenticated;
grant select, insert, update, delete on powdermeet.imported_runs to authenticated;
grant select, insert, delete on powdermeet.live_presence to authenticated;
grant select, insert, update on powdermeet.meet_requests to authenticated;
grant select, insert on powdermeet.device_tokens to authenticated;
grant select on powdermeet.skis_catalog, powdermeet.resort_snapshot_pins, powdermeet.current_resort_canonical_manifest
  to anon, authenticated;
grant all on all tables in schema powdermeet to service_role;

revoke all on function private.powdermeet_relation(uuid), private.powdermeet_username(uuid), private.powdermeet_signup_name(jsonb),
  private.powdermeet_ensure_profile(), private.powdermeet_profiles_write(), private.powdermeet_user_blocks_write(),
  private.powdermeet_friendships_write(), private.powdermeet_imported_runs_write(), private.powdermeet_live_presence_write(),
  private.powdermeet_device_tokens_write(), private.powdermeet_meet_requests_insert(), powdermeet.is_display_name_taken(text), powdermeet.send_friend_request(uuid),
  powdermeet.get_social_snapshot(text), powdermeet.find_users_by_emails(text[]), powdermeet.find_users_by_phones(text[]),
  powdermeet.recompute_profile_stats(uuid), powdermeet.recompute_profile_edge_speeds(uuid), powdermeet.delete_user_account()
  from public, anon, authenticated;
grant execute on function private.powdermeet_relation(uuid), private.powdermeet_signup_name(jsonb) to authenticated;
grant execute on function private.powdermeet_meet_requests_update() to authenticated;
grant execute on function powdermeet.is_display_name_taken(text), powdermeet.resolve_resort_id(double precision, double precision),
  powdermeet.resolve_resort_id(text) to anon, authenticated;
grant execute on function powdermeet.send_friend_request(uuid), powdermeet.get_social_snapshot(text),
  powdermeet.find_users_by_emails(text[]), powdermeet.find_users_by_phones(text[]),
  powdermeet.recompute_profile_stats(uuid), powdermeet.recompute_profile_edge_speeds(uuid), powdermeet.delete_user_account()
  to authenticated;
