-- Weather conditions per resort: the current snapshot of the newest
-- Open-Meteo forecast, and its hourly samples merged across refreshes.
-- Readable by signed-in clients (like the status sidecar); written only
-- through mountain.merge_resort_conditions as the service role.

create table mountain.resort_conditions (
  resort_id text primary key references mountain.resorts (id) on delete cascade,
  -- The forecast's current.time: when the snapshot was observed.
  observed_at timestamptz not null,
  -- The resort's DST-aware offset from UTC as the forecast reported it.
  utc_offset_seconds integer,
  station_elevation_m double precision,
  fresh_snow_24h_cm double precision not null,
  temperature_c double precision not null,
  wind_kmh double precision not null,
  visibility_km double precision not null,
  cloud_cover_pct double precision not null,
  source text not null,
  -- Bumped by every completed merge; clients re-evaluate when it changes.
  merge_generation bigint not null default 1,
  merged_at timestamptz not null,
  constraint resort_conditions_source check (btrim(source) <> '')
);

create table mountain.resort_conditions_hourly (
  resort_id text not null references mountain.resort_conditions (resort_id) on delete cascade,
  at timestamptz not null,
  temperature_c double precision not null,
  wind_kmh double precision not null,
  visibility_km double precision not null,
  cloud_cover_pct double precision not null,
  primary key (resort_id, at)
);

alter table mountain.resort_conditions enable row level security;
alter table mountain.resort_conditions_hourly enable row level security;
revoke all on mountain.resort_conditions, mountain.resort_conditions_hourly from anon, authenticated;
grant select on mountain.resort_conditions, mountain.resort_conditions_hourly to authenticated;
grant all on mountain.resort_conditions, mountain.resort_conditions_hourly to service_role;
