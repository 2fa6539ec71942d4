-- Leases for the worker's scheduled jobs.
--
-- A worker runs a job only while it holds the job's session advisory lock
-- (summit.try_job_lease) and only when summit.job_runs says no one finished
-- it within its interval (summit.start_job_run). The lock ends with the
-- holder's connection, so a crashed worker never strands a job.

-- The advisory lock key of a job: a fixed class and the hash of its name.
create or replace function summit.try_job_lease(p_job text) returns boolean
  language sql volatile
  set search_path = ''
  as $$ select pg_try_advisory_lock(1398099284, hashtext(p_job)) $$;

create or replace function summit.release_job_lease(p_job text) returns boolean
  language sql volatile
  set search_path = ''
  as $$ select pg_advisory_unlock(1398099284, hashtext(p_job)) $$;

-- Starts a run unless another worker finished one less than p_every ago;
-- call it holding the job's lease. True when the caller should run the job.
create or replace function summit.start_job_run(p_job text, p_every interval, p_worker text) returns boolean
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_started boolean;
begin
  insert into summit.job_runs as r (job, last_started_at, last_outcome, last_worker, runs)
  values (p_job, summit.now(), 'running', p_worker, 1)
  on conflict (job) do update set
    last_started_at = excluded.last_started_at, last_outcome = 'running', last_worker = excluded.last_worker, runs = r.runs + 1
  where r.last_finished_at is null or r.last_outcome is distinct from 'succeeded'
     or r.last_finished_at <= summit.now() - p_every
  returning true into v_started;
  if v_started then
    -- The caller holds the lease: a run still open was cut short (its worker's connection died).
    update summit.job_run_history set outcome = 'abandoned' where job = p_job and outcome = 'running';
    delete from summit.job_run_history where job = p_job and started_at < summit.now() - interval '7 days';
    insert into summit.job_run_history (job, worker, started_at) values (p_job, p_worker, summit.now());
  end if;
  return coalesce(v_started, false);
end
$$;

create or replace function summit.finish_job_run(p_job text, p_succeeded boolean, p_detail text) returns void
  language sql volatile
  set search_path = ''
  as $$
    update summit.job_runs set last_finished_at = summit.now(),
      last_outcome = case when p_succeeded then 'succeeded' else 'failed' end, last_detail = left(p_detail, 2000)
    where job = p_job;
    update summit.job_run_history set finished_at = summit.now(),
      outcome = case when p_succeeded then 'succeeded' else 'failed' end
    where job = p_job and outcome = 'running';
  $$;

grant execute on function summit.try_job_lease(text) to service_role;
grant execute on function summit.release_job_lease(text) to service_role;
grant execute on function summit.start_job_run(text, interval, text) to service_role;
grant execute on function summit.finish_job_run(text, boolean, text) to service_role;
