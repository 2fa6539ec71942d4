-- The worker's scheduled jobs: when each last started and finished, and how.
-- Workers take a per-job advisory lock before running a job and consult this
-- table under it, so a job runs once per interval however many workers run.

create table summit.job_runs (
  job text primary key,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_outcome text,
  last_detail text,
  -- application_name and backend pid of the worker that ran it last.
  last_worker text,
  runs bigint not null default 0,
  constraint job_runs_name check (job ~ '^[a-z][a-z0-9-]{0,62}$'),
  constraint job_runs_outcome check (last_outcome is null or last_outcome in ('running', 'succeeded', 'failed'))
);

alter table summit.job_runs enable row level security;
revoke all on summit.job_runs from anon, authenticated;
grant all on summit.job_runs to service_role;
