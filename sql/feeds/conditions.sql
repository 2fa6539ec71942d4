-- Weather conditions: the hourly merge of an Open-Meteo forecast.
--
-- The merge replaces the current snapshot, replaces the stored samples the new
-- forecast covers (its first to its last hour), keeps older samples up to a
-- day before the snapshot, bumps merge_generation and notifies
-- 'weather:{resort_id}' with {"generation": n}. The notification is delivered
-- at commit, so whoever re-evaluates an active meet on it reads the completed
-- merge, never a half-written one. Refused input writes nothing.

-- True when a reading's four weather fields are numbers in physical range.
create or replace function mountain.weather_reading_is_valid(p_reading jsonb) returns boolean
  language sql immutable
  set search_path = ''
  as $$
    select case
      when jsonb_typeof(p_reading) is distinct from 'object' then false
      when jsonb_typeof(p_reading -> 'temperature_c') is distinct from 'number'
        or jsonb_typeof(p_reading -> 'wind_kmh') is distinct from 'number'
        or jsonb_typeof(p_reading -> 'visibility_km') is distinct from 'number'
        or jsonb_typeof(p_reading -> 'cloud_cover_pct') is distinct from 'number' then false
      else (p_reading ->> 'temperature_c')::double precision between -90 and 60
       and (p_reading ->> 'wind_kmh')::double precision between 0 and 500
       and (p_reading ->> 'visibility_km')::double precision between 0 and 1000
       and (p_reading ->> 'cloud_cover_pct')::double precision between 0 and 100
    end
  $$;

-- p_current: {"observed_at": unix s, "temperature_c", "wind_kmh", "visibility_km",
--   "cloud_cover_pct", "fresh_snow_24h_cm", "station_elevation_m"|null, "utc_offset_seconds"|null}
-- p_hourly: [{"at": unix s, "temperature_c", "wind_kmh", "visibility_km", "cloud_cover_pct"}, …]
create or replace function mountain.merge_resort_conditions(
  p_resort_id text, p_source text, p_current jsonb, p_hourly jsonb
) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_bad text;
  v_observed timestamptz;
  v_first timestamptz;
  v_last timestamptz;
  v_generation bigint;
  v_samples integer;
begin
  if not exists (select 1 from mountain.resorts where id = p_resort_id) then
    perform mountain.refuse('unknown_resort', format('There is no resort %L; ingest it first (summit resort ingest)', p_resort_id));
  end if;
  if coalesce(btrim(p_source), '') = '' then
    perform mountain.refuse('invalid_conditions_source', 'Name the forecast the conditions came from');
  end if;
  if jsonb_typeof(p_current) is distinct from 'object'
     or jsonb_typeof(p_current -> 'observed_at') is distinct from 'number'
     or not mountain.weather_reading_is_valid(p_current)
     or jsonb_typeof(p_current -> 'fresh_snow_24h_cm') is distinct from 'number'
     or (p_current ->> 'fresh_snow_24h_cm')::double precision not between 0 and 1000
     or jsonb_typeof(coalesce(p_current -> 'station_elevation_m', 'null')) not in ('null', 'number')
     or jsonb_typeof(coalesce(p_current -> 'utc_offset_seconds', 'null')) not in ('null', 'number')
     or coalesce((p_current ->> 'utc_offset_seconds')::double precision, 0) not between -64800 and 64800 then
    perform mountain.refuse('invalid_conditions_current', 'The current snapshot needs observed_at (Unix seconds), temperature_c '
      || '(-90…60), wind_kmh (0…500), visibility_km (0…1000), cloud_cover_pct (0…100), fresh_snow_24h_cm (0…1000), '
      || 'and optionally station_elevation_m and utc_offset_seconds (±18 h)');
  end if;
  v_observed := to_timestamp((p_current ->> 'observed_at')::double precision);
  if v_observed > summit.now() + interval '120 seconds' then
    perform mountain.refuse('conditions_from_the_future', format(
      'The snapshot''s observed_at %s is more than 120 s ahead of the server clock; check the producer''s clock', v_observed));
  end if;
  if jsonb_typeof(p_hourly) is distinct from 'array' then
    perform mountain.refuse('invalid_conditions_hourly', 'hourly is an array of samples');
  end if;
  select coalesce(h ->> 'at', '(no time)') into v_bad from jsonb_array_elements(p_hourly) h
  where jsonb_typeof(h) <> 'object' or jsonb_typeof(h -> 'at') is distinct from 'number'
     or not mountain.weather_reading_is_valid(h)
  limit 1;
  if v_bad is not null then
    perform mountain.refuse('invalid_conditions_hourly', format(
      'The sample at %s needs at (Unix seconds), temperature_c, wind_kmh, visibility_km and cloud_cover_pct in range', v_bad));
  end if;
  if (select count(*) <> count(distinct h ->> 'at') from jsonb_array_elements(p_hourly) h) then
    perform mountain.refuse('invalid_conditions_hourly', 'Two hourly samples share one instant; send one per hour');
  end if;

  insert into mountain.resort_conditions as c (resort_id, observed_at, utc_offset_seconds, station_elevation_m, fresh_snow_24h_cm,
    temperature_c, wind_kmh, visibility_km, cloud_cover_pct, source, merge_generation, merged_at)
  values (p_resort_id, v_observed, (p_current ->> 'utc_offset_seconds')::integer, (p_current ->> 'station_elevation_m')::double precision,
    (p_current ->> 'fresh_snow_24h_cm')::double precision, (p_current ->> 'temperature_c')::double precision,
    (p_current ->> 'wind_kmh')::double precision, (p_current ->> 'visibility_km')::double precision,
    (p_current ->> 'cloud_cover_pct')::double precision, btrim(p_source), 1, summit.now())
  on conflict (resort_id) do update set
    observed_at = excluded.observed_at, utc_offset_seconds = excluded.utc_offset_seconds,
    station_elevation_m = excluded.station_elevation_m, fresh_snow_24h_cm = excluded.fresh_snow_24h_cm,
    temperature_c = excluded.temperature_c, wind_kmh = excluded.wind_kmh, visibility_km = excluded.visibility_km,
    cloud_cover_pct = excluded.cloud_cover_pct, source = excluded.source,
    merge_generation = c.merge_generation + 1, merged_at = excluded.merged_at
  returning merge_generation into v_generation;

  select min(to_timestamp((h ->> 'at')::double precision)), max(to_timestamp((h ->> 'at')::double precision))
    into v_first, v_last from jsonb_array_elements(p_hourly) h;
  delete from mountain.resort_conditions_hourly
  where resort_id = p_resort_id
    and ((at between v_first and v_last) or at < v_observed - interval '24 hours');
  insert into mountain.resort_conditions_hourly (resort_id, at, temperature_c, wind_kmh, visibility_km, cloud_cover_pct)
  select p_resort_id, to_timestamp((h ->> 'at')::double precision), (h ->> 'temperature_c')::double precision,
         (h ->> 'wind_kmh')::double precision, (h ->> 'visibility_km')::double precision, (h ->> 'cloud_cover_pct')::double precision
  from jsonb_array_elements(p_hourly) h;
  get diagnostics v_samples = row_count;

  perform pg_notify('weather:' || p_resort_id, jsonb_build_object('generation', v_generation)::text);
  return jsonb_build_object('resort_id', p_resort_id, 'generation', v_generation, 'merged_samples', v_samples,
    'stored_samples', (select count(*) from mountain.resort_conditions_hourly where resort_id = p_resort_id),
    'observed_at', v_observed, 'first_sample_at', v_first, 'last_sample_at', v_last);
end
$$;

drop policy if exists conditions_read on mountain.resort_conditions;
create policy conditions_read on mountain.resort_conditions for select to authenticated using (true);
drop policy if exists conditions_hourly_read on mountain.resort_conditions_hourly;
create policy conditions_hourly_read on mountain.resort_conditions_hourly for select to authenticated using (true);

grant execute on function mountain.merge_resort_conditions(text, text, jsonb, jsonb) to service_role;
grant execute on function mountain.weather_reading_is_valid(jsonb) to service_role;
