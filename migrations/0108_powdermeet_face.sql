-- The PowderMeet face: a schema of views and functions in the names the app's
-- client uses (sql/faces/powdermeet.sql), over the core model. Its API keys
-- (`summit serve keys --app powdermeet`) make it the default REST schema.
-- What the app keeps that the core had no place for lives in the core beside
-- what it extends: the rider's speeds, comfort and body metrics (meet), and the
-- ski models the app's picker lists (activity).

create schema if not exists powdermeet;
grant usage on schema powdermeet to anon, authenticated, service_role;

-- How one person skis, as the app's meeting-point solver reads it: speeds in m/s
-- per difficulty (null: does not ski it), comfort in conditions from 0 to 1,
-- limits, and what the app records. Height and weight are the person's alone.
create table if not exists meet.rider_profiles (
  user_id uuid primary key references social.profiles (id) on delete cascade,
  avatar_url text check (avatar_url ~ '^https?://' and length(avatar_url) <= 2048),
  speed_green double precision check (speed_green between 0 and 60),
  speed_blue double precision check (speed_blue between 0 and 60),
  speed_black double precision check (speed_black between 0 and 60),
  speed_double_black double precision check (speed_double_black between 0 and 60),
  speed_terrain_park double precision check (speed_terrain_park between 0 and 60),
  condition_moguls double precision not null default 0.5 check (condition_moguls between 0 and 1),
  condition_ungroomed double precision not null default 0.5 check (condition_ungroomed between 0 and 1),
  condition_icy double precision not null default 0.5 check (condition_icy between 0 and 1),
  condition_gladed double precision not null default 0.5 check (condition_gladed between 0 and 1),
  max_comfortable_gradient_degrees double precision check (max_comfortable_gradient_degrees between 0 and 90),
  mogul_tolerance double precision check (mogul_tolerance between 0 and 1),
  narrow_trail_tolerance double precision check (narrow_trail_tolerance between 0 and 1),
  exposure_tolerance double precision check (exposure_tolerance between 0 and 1),
  crust_condition_tolerance double precision check (crust_condition_tolerance between 0 and 1),
  live_recording_enabled boolean not null default true,
  height_cm double precision check (height_cm between 50 and 260),
  weight_kg double precision check (weight_kg between 20 and 350),
  preferred_ski_id uuid,
  onboarding_completed boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Ski models for the app's picker (`summit skis import FILE`), readable by anyone.
create table if not exists activity.ski_models (
  id uuid primary key default gen_random_uuid(),
  brand text not null check (length(btrim(brand)) between 1 and 80),
  model text not null check (length(btrim(model)) between 1 and 120),
  category text check (length(category) <= 40),
  waist_width_mm integer check (waist_width_mm between 50 and 200),
  topsheet_asset_key text check (topsheet_asset_key ~ '^[A-Za-z0-9_.-]{1,120}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (brand, model)
);

alter table meet.rider_profiles enable row level security;
alter table activity.ski_models enable row level security;
revoke all on meet.rider_profiles, activity.ski_models from anon, authenticated;
grant select on meet.rider_profiles to authenticated;
grant select on activity.ski_models to anon, authenticated;
grant all on meet.rider_profiles, activity.ski_models to service_role;
grant usage on schema activity to anon;
