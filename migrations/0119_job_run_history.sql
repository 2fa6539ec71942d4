-- Each run of a scheduled job, a week of them: which worker ran it, from when to
-- when, and how it ended. summit.job_runs keeps only the last run of each job;
-- this shows that runs never overlapped (a lease per job, across failovers too)
-- and which runs a lost connection cut short ('abandoned').

create table summit.job_run_history (
  id bigint generated always as identity primary key,
  job text not null,
  worker text not null,
  started_at timestamptz not null,
  finished_at timestamptz,
  outcome text not null default 'running',
  constraint job_run_history_outcome check (outcome in ('running', 'succeeded', 'failed', 'abandoned')),
  constraint job_run_history_finished check ((finished_at is null) = (outcome in ('running', 'abandoned')))
);
create index job_run_history_job on summit.job_run_history (job, started_at desc);

alter table summit.job_run_history enable row level security;
revoke all on summit.job_run_history from anon, authenticated;
grant select, insert, update, delete on summit.job_run_history to service_role;
