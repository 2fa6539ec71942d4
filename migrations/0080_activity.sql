-- PowderMeet ski days: imported runs, per-profile stats, learned per-edge
-- speeds (spec mountain-engine §3.9, §5.4, §5.5).
--
-- Tables, indexes, RLS switched on and grants only; functions and policies
-- are repeatable definitions in sql/0080_activity.sql. Resorts and datasets
-- are plain values (resort_id text, dataset_version text) so this schema
-- stands without the mountain schema.

create schema if not exists activity;
grant usage on schema activity to authenticated, service_role;

create table activity.imported_runs (
  id uuid primary key default gen_random_uuid(),
  profile_id uuid not null references social.profiles (id) on delete cascade,
  resort_id text not null check (char_length(resort_id) between 1 and 100),
  -- provenance: the graph the run was matched on (m<N>-v15-<sha>), null when unmatched
  dataset_version text check (dataset_version is null or char_length(dataset_version) <= 200),
  edge_id text,
  difficulty text check (difficulty is null or difficulty in ('green', 'blue', 'black', 'doubleBlack', 'terrainPark')),
  trail_name text,
  speed_ms double precision check (speed_ms is null or speed_ms >= 0),
  peak_speed_ms double precision check (peak_speed_ms is null or peak_speed_ms between 0 and 60),
  duration_s double precision not null check (duration_s >= 0),
  vertical_m double precision not null check (vertical_m >= 0),
  distance_m double precision not null check (distance_m >= 0),
  max_grade_deg double precision check (max_grade_deg is null or max_grade_deg between 0 and 90),
  run_at timestamptz not null,
  ended_at timestamptz not null,
  dedup_hash text not null,
  source text not null check (source in
    ('slopes', 'gpx', 'tcx', 'fit', 'skitracks', 'healthkit', 'strava', 'garmin', 'live', 'powdermeet')),
  source_file_hash text not null,
  raw_source_id text,
  conditions_fp text not null default 'default',
  matched_edge_ids text[] not null default '{}',
  edge_observations jsonb not null default '[]' check (jsonb_typeof(edge_observations) = 'array'),
  match_method text not null default 'none' check (match_method in ('strict', 'relaxed', 'nearest', 'none')),
  match_confidence double precision not null default 0 check (match_confidence between 0 and 1),
  equipment_key text not null default 'none',
  created_at timestamptz not null default now(),
  check (ended_at >= run_at),
  constraint imported_runs_one_per_physical_run unique (profile_id, dedup_hash)
);
create index imported_runs_profile_time on activity.imported_runs (profile_id, run_at);

create table activity.profile_stats (
  profile_id uuid primary key references social.profiles (id) on delete cascade,
  days_skied integer not null default 0,
  runs_count integer not null default 0,
  vertical_m double precision not null default 0,
  top_speed_ms double precision,
  total_duration_s double precision not null default 0,
  total_distance_m double precision not null default 0,
  top_grade_deg double precision,
  avg_speed_ms double precision,
  last_import_at timestamptz,
  updated_at timestamptz not null default now()
);

create table activity.profile_edge_speeds (
  profile_id uuid not null references social.profiles (id) on delete cascade,
  resort_id text not null,
  edge_id text not null,
  conditions_fp text not null default 'default',
  equipment_key text not null default 'none',
  observation_count integer not null check (observation_count > 0),
  rolling_speed_ms double precision not null,
  rolling_speed_variance_ms2 double precision not null default 0,
  rolling_peak_ms double precision,
  rolling_duration_s double precision,
  last_observed_at timestamptz not null,
  updated_at timestamptz not null default now(),
  primary key (profile_id, resort_id, edge_id, conditions_fp, equipment_key)
);

alter table activity.imported_runs enable row level security;
alter table activity.profile_stats enable row level security;
alter table activity.profile_edge_speeds enable row level security;

grant all on all tables in schema activity to service_role;
-- Owners read and delete their runs directly; every write goes through the RPCs.
grant select, delete on activity.imported_runs to authenticated;
grant select on activity.profile_stats, activity.profile_edge_speeds to authenticated;
