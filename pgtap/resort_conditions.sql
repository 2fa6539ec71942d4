-- Weather conditions: the hourly merge replaces the snapshot and the hours
-- the new forecast covers, keeps the rest for a day, bumps the generation;
-- refused input keeps what was there. Clients read, only the service role merges.
begin;
select plan(13);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
select tests.create_user('rider@example.test') as rider \gset
select tests.freeze_time('2026-02-01 09:10:00+00');

create function pg_temp.reading(p_at timestamptz, p_wind double precision) returns jsonb language sql as $$
  select jsonb_build_object('at', extract(epoch from p_at), 'temperature_c', -5, 'wind_kmh', p_wind,
                            'visibility_km', 10, 'cloud_cover_pct', 40)
$$;
create function pg_temp.current(p_at timestamptz) returns jsonb language sql as $$
  select jsonb_build_object('observed_at', extract(epoch from p_at), 'temperature_c', -4, 'wind_kmh', 12, 'visibility_km', 20,
                            'cloud_cover_pct', 30, 'fresh_snow_24h_cm', 6, 'station_elevation_m', 2100, 'utc_offset_seconds', 3600)
$$;

select tests.act_as_service();
select is(mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-01 09:00:00+00'),
  jsonb_build_array(pg_temp.reading('2026-02-01 09:00:00+00', 10), pg_temp.reading('2026-02-01 10:00:00+00', 20),
                    pg_temp.reading('2026-02-01 11:00:00+00', 30))) ->> 'generation', '1', 'the first merge is generation 1');
select is((select count(*)::int from mountain.resort_conditions_hourly), 3, 'its samples are stored');
select is((select utc_offset_seconds from mountain.resort_conditions), 3600, 'the resort''s UTC offset is kept');

select tests.freeze_time('2026-02-01 10:10:00+00');
select is(mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-01 10:00:00+00'),
  jsonb_build_array(pg_temp.reading('2026-02-01 10:00:00+00', 25), pg_temp.reading('2026-02-01 12:00:00+00', 40))) ->> 'generation', '2',
  'the next merge bumps the generation');
select is((select array_agg(wind_kmh order by at) from mountain.resort_conditions_hourly),
  array[10, 25, 40]::double precision[],
  'the hours the new forecast covers are replaced (11:00 inside its range is gone), earlier ones kept');

select throws_ok($$select mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-01 10:00:00+00'),
  jsonb_build_array(pg_temp.reading('2026-02-01 13:00:00+00', 900)))$$, 'P0001', 'invalid_conditions_hourly', 'a wind of 900 km/h is refused');
select throws_ok($$select mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-01 10:00:00+00'),
  jsonb_build_array(pg_temp.reading('2026-02-01 13:00:00+00', 9), pg_temp.reading('2026-02-01 13:00:00+00', 9)))$$,
  'P0001', 'invalid_conditions_hourly', 'two samples at one instant are refused');
select throws_ok($$select mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-01 10:30:00+00'), '[]')$$,
  'P0001', 'conditions_from_the_future', 'a snapshot more than 120 s ahead is refused');
select throws_ok($$select mountain.merge_resort_conditions('alpha', 'open-meteo', '{"observed_at": 1}', '[]')$$,
  'P0001', 'invalid_conditions_current', 'a snapshot without readings is refused');
select is((select merge_generation from mountain.resort_conditions), 2::bigint, 'refused merges keep the previous conditions');

select tests.freeze_time('2026-02-02 12:30:00+00');
select mountain.merge_resort_conditions('alpha', 'open-meteo', pg_temp.current('2026-02-02 12:30:00+00'),
  jsonb_build_array(pg_temp.reading('2026-02-02 13:00:00+00', 5))) as merged \gset
select is((select count(*)::int from mountain.resort_conditions_hourly), 1, 'samples more than a day older than the snapshot go');

select tests.act_as(:'rider');
select is((select wind_kmh from mountain.resort_conditions_hourly), 5::double precision, 'signed-in clients read the conditions');
select throws_ok($$select mountain.merge_resort_conditions('alpha', 'x', pg_temp.current('2026-02-02 12:30:00+00'), '[]')$$,
  '42501', null, 'clients cannot merge conditions');

select * from finish();
rollback;
