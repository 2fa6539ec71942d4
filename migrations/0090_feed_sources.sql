-- Where each resort's live feeds come from, and how their refreshes went.
--
-- One row per resort and feed kind: the lift/trail status feed (our own JSON
-- or the Epic terrain feed) and the Open-Meteo hourly forecast. The worker's
-- scheduler refreshes every enabled source when it is due; the refresh log
-- keeps the last attempt, success and failure so retries can be throttled.

create table mountain.resort_feed_sources (
  resort_id text not null references mountain.resorts (id) on delete cascade,
  kind text not null,
  -- An http(s) URL, or a file path (read by the worker's machine).
  location text not null,
  -- Status feeds: 'summit' or 'epic'; null reads the shape from the document.
  format text,
  enabled boolean not null default true,
  updated_at timestamptz not null default now(),
  primary key (resort_id, kind),
  constraint resort_feed_sources_kind check (kind in ('status', 'weather')),
  constraint resort_feed_sources_location check (btrim(location) <> '' and length(location) <= 2000),
  constraint resort_feed_sources_format check (
    format is null or (kind = 'status' and format in ('summit', 'epic')))
);

create table mountain.resort_feed_refreshes (
  resort_id text not null references mountain.resorts (id) on delete cascade,
  kind text not null,
  last_attempt_at timestamptz,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_error text,
  consecutive_failures integer not null default 0,
  primary key (resort_id, kind),
  constraint resort_feed_refreshes_kind check (kind in ('status', 'weather'))
);

alter table mountain.resort_feed_sources enable row level security;
alter table mountain.resort_feed_refreshes enable row level security;
-- Operator configuration: only the service role (which bypasses RLS) reads or writes it.
revoke all on mountain.resort_feed_sources, mountain.resort_feed_refreshes from anon, authenticated;
grant all on mountain.resort_feed_sources, mountain.resort_feed_refreshes to service_role;
