-- Ski day rules: runs are the owner's alone; friends see aggregates
-- (profile_stats, profile_edge_speeds), never raw runs; recomputes refuse any
-- caller but the owner (assert_activity_owner) — the worker, as service_role,
-- may recompute anyone.

-- The caller may act on p_profile's activity: p_profile itself, or the service role.
create or replace function activity.assert_activity_owner(p_profile uuid) returns uuid
  language plpgsql stable
  set search_path = ''
  as $$
begin
  if coalesce(auth.role(), '') = 'service_role' and p_profile is not null then
    return p_profile;
  end if;
  if auth.uid() is null or coalesce(auth.role(), 'authenticated') = 'anon' then
    perform private.fail('not_signed_in', 'Sign in first.');
  end if;
  if p_profile is distinct from auth.uid() then
    perform private.fail('not_activity_owner', 'Only the owner can change or recompute their own ski days.');
  end if;
  return p_profile;
end
$$;

-- profile_stats from the runs (spec §5.5).
create or replace function activity.recompute_profile_stats(p_profile uuid default auth.uid())
  returns activity.profile_stats
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v uuid := activity.assert_activity_owner(p_profile);
  result activity.profile_stats;
begin
  insert into activity.profile_stats as s (profile_id, days_skied, runs_count, vertical_m, top_speed_ms,
      total_duration_s, total_distance_m, top_grade_deg, avg_speed_ms, last_import_at, updated_at)
  select v,
         count(distinct date_trunc('day', r.run_at))::int,
         count(*)::int,
         coalesce(sum(r.vertical_m), 0),
         max(coalesce(r.peak_speed_ms, r.speed_ms)),
         coalesce(sum(r.duration_s), 0),
         coalesce(sum(r.distance_m), 0),
         max(r.max_grade_deg),
         avg(nullif(r.speed_ms, 0)),
         max(r.run_at),
         summit.now()
  from activity.imported_runs r
  where r.profile_id = v
  on conflict (profile_id) do update set
    days_skied = excluded.days_skied, runs_count = excluded.runs_count, vertical_m = excluded.vertical_m,
    top_speed_ms = excluded.top_speed_ms, total_duration_s = excluded.total_duration_s,
    total_distance_m = excluded.total_distance_m, top_grade_deg = excluded.top_grade_deg,
    avg_speed_ms = excluded.avg_speed_ms, last_import_at = excluded.last_import_at, updated_at = excluded.updated_at
  returning * into result;
  return result;
end
$$;

-- profile_edge_speeds from strict edge observations, 60-day half-life (spec §5.5).
create or replace function activity.recompute_profile_edge_speeds(p_profile uuid default auth.uid())
  returns integer
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v uuid := activity.assert_activity_owner(p_profile);
  tau constant double precision := 60 / ln(2);
  written integer;
begin
  delete from activity.profile_edge_speeds where profile_id = v;
  insert into activity.profile_edge_speeds (profile_id, resort_id, edge_id, conditions_fp, equipment_key,
      observation_count, rolling_speed_ms, rolling_speed_variance_ms2, rolling_peak_ms, rolling_duration_s,
      last_observed_at, updated_at)
  select v, o.resort_id, o.edge_id, o.conditions_fp, o.equipment_key,
         count(*)::int,
         sum(o.w * o.speed) / sum(o.w),
         greatest(0, sum(o.w * o.speed * o.speed) / sum(o.w) - power(sum(o.w * o.speed) / sum(o.w), 2)),
         max(o.peak),
         sum(o.w * o.duration) / sum(o.w),
         max(o.run_at),
         summit.now()
  from (
    select r.resort_id, e ->> 'edge_id' as edge_id, r.conditions_fp, r.equipment_key, r.run_at,
           (e ->> 'speed_ms')::double precision as speed,
           (e ->> 'duration_s')::double precision as duration,
           r.peak_speed_ms as peak,
           exp(-greatest(0, extract(epoch from summit.now() - r.run_at) / 86400) / tau) as w
    from activity.imported_runs r
    cross join lateral jsonb_array_elements(r.edge_observations) e
    where r.profile_id = v and r.match_method = 'strict'
      and coalesce((e ->> 'feeds_learning')::boolean, false)
      and (e ->> 'speed_ms')::double precision > 0
  ) o
  group by o.resort_id, o.edge_id, o.conditions_fp, o.equipment_key;
  get diagnostics written = row_count;
  return written;
end
$$;

-- Stores a batch of runs for the caller, skipping physical duplicates: the same
-- dedup hash, or a run that overlaps an existing one by more than half of the
-- shorter (the same descent exported by another app). Recomputes both
-- aggregates. Returns {inserted, duplicates, ids}.
create or replace function activity.save_imported_runs(p_runs jsonb) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v uuid := private.require_user();
  run jsonb;
  new_id uuid;
  ids uuid[] := '{}';
  duplicates integer := 0;
  starts timestamptz;
  ends timestamptz;
begin
  if jsonb_typeof(p_runs) is distinct from 'array' then
    perform private.fail('runs_not_an_array', 'Pass the runs as a JSON array.');
  end if;
  -- One import at a time per person, so two retries cannot both pass the overlap check.
  perform pg_advisory_xact_lock(hashtextextended('activity.save_imported_runs:' || v::text, 0));
  for run in select value from jsonb_array_elements(p_runs) loop
    starts := (run ->> 'run_at')::timestamptz;
    ends := (run ->> 'ended_at')::timestamptz;
    if starts is null or ends is null or ends < starts or coalesce(run ->> 'dedup_hash', '') = ''
       or coalesce(run ->> 'resort_id', '') = '' or coalesce(run ->> 'source', '') = '' then
      perform private.fail('run_invalid', 'Each run needs run_at <= ended_at, dedup_hash, resort_id and source.');
    end if;
    if exists (
      select 1 from activity.imported_runs r
      where r.profile_id = v
        and (r.dedup_hash = run ->> 'dedup_hash'
             or (r.run_at < ends and r.ended_at > starts
                 and extract(epoch from least(r.ended_at, ends) - greatest(r.run_at, starts))
                     > 0.5 * least(extract(epoch from r.ended_at - r.run_at), extract(epoch from ends - starts))))
    ) then
      duplicates := duplicates + 1;
      continue;
    end if;
    insert into activity.imported_runs (profile_id, resort_id, dataset_version, edge_id, difficulty, trail_name,
        speed_ms, peak_speed_ms, duration_s, vertical_m, distance_m, max_grade_deg, run_at, ended_at, dedup_hash,
        source, source_file_hash, raw_source_id, conditions_fp, matched_edge_ids, edge_observations,
        match_method, match_confidence, equipment_key, app_figures)
    values (v, run ->> 'resort_id', run ->> 'dataset_version', run ->> 'edge_id', run ->> 'difficulty',
        run ->> 'trail_name', (run ->> 'speed_ms')::double precision, (run ->> 'peak_speed_ms')::double precision,
        (run ->> 'duration_s')::double precision, (run ->> 'vertical_m')::double precision,
        (run ->> 'distance_m')::double precision, (run ->> 'max_grade_deg')::double precision, starts, ends,
        run ->> 'dedup_hash', run ->> 'source', coalesce(run ->> 'source_file_hash', ''), run ->> 'raw_source_id',
        coalesce(run ->> 'conditions_fp', 'default'),
        coalesce(array(select jsonb_array_elements_text(run -> 'matched_edge_ids')), '{}'),
        coalesce(run -> 'edge_observations', '[]'), coalesce(run ->> 'match_method', 'none'),
        coalesce((run ->> 'match_confidence')::double precision, 0), coalesce(run ->> 'equipment_key', 'none'),
        case when jsonb_typeof(run -> 'app_figures') = 'object' then run -> 'app_figures' end)
    on conflict (profile_id, dedup_hash) do nothing
    returning id into new_id;
    if new_id is null then
      duplicates := duplicates + 1;
    else
      ids := ids || new_id;
    end if;
    new_id := null;
  end loop;
  perform activity.recompute_profile_stats(v);
  perform activity.recompute_profile_edge_speeds(v);
  return jsonb_build_object('inserted', coalesce(array_length(ids, 1), 0), 'duplicates', duplicates, 'ids', to_jsonb(ids));
end
$$;

-- Deletes one of the caller's runs and refreshes the aggregates; false when
-- there is no such run of theirs (someone else's run is not theirs to delete).
create or replace function activity.delete_imported_run(p_run uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v uuid := private.require_user();
  deleted integer;
begin
  delete from activity.imported_runs where id = p_run and profile_id = v;
  get diagnostics deleted = row_count;
  if deleted > 0 then
    perform activity.recompute_profile_stats(v);
    perform activity.recompute_profile_edge_speeds(v);
  end if;
  return deleted > 0;
end
$$;

-- Whether p_profile is a friend of the caller: what the friend-read policies
-- ask. Definer, because the friendship table is not readable by clients; it
-- only ever answers about the caller.
create or replace function activity.is_friend_of_caller(p_profile uuid) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$ select private.is_friend(auth.uid(), p_profile) $$;

drop policy if exists imported_runs_owner_read on activity.imported_runs;
create policy imported_runs_owner_read on activity.imported_runs
  for select to authenticated using (profile_id = (select auth.uid()));

drop policy if exists imported_runs_owner_delete on activity.imported_runs;
create policy imported_runs_owner_delete on activity.imported_runs
  for delete to authenticated using (profile_id = (select auth.uid()));

drop policy if exists profile_stats_owner_or_friend_read on activity.profile_stats;
create policy profile_stats_owner_or_friend_read on activity.profile_stats
  for select to authenticated
  using (profile_id = (select auth.uid()) or activity.is_friend_of_caller(profile_id));

drop policy if exists profile_edge_speeds_owner_read on activity.profile_edge_speeds;
create policy profile_edge_speeds_owner_read on activity.profile_edge_speeds
  for select to authenticated using (profile_id = (select auth.uid()));

drop policy if exists profile_edge_speeds_friend_read on activity.profile_edge_speeds;
create policy profile_edge_speeds_friend_read on activity.profile_edge_speeds
  for select to authenticated using (activity.is_friend_of_caller(profile_id));

revoke all on function activity.assert_activity_owner(uuid), activity.recompute_profile_stats(uuid),
  activity.recompute_profile_edge_speeds(uuid), activity.save_imported_runs(jsonb),
  activity.delete_imported_run(uuid), activity.is_friend_of_caller(uuid) from public;
grant execute on function activity.assert_activity_owner(uuid), activity.recompute_profile_stats(uuid),
  activity.recompute_profile_edge_speeds(uuid), activity.save_imported_runs(jsonb),
  activity.delete_imported_run(uuid), activity.is_friend_of_caller(uuid) to authenticated, service_role;
