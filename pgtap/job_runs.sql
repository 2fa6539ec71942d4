-- Job leases: a job starts only when no worker finished it within its
-- interval; a failed run may be retried at once. Leases are advisory locks.
begin;
select plan(13);

select tests.freeze_time('2026-02-01 09:00:00+00');
select tests.act_as_service();
select ok(summit.try_job_lease('presence-sweep'), 'the lease of a job is free');
select ok(summit.start_job_run('presence-sweep', interval '5 minutes', 'worker-a'), 'a job never run starts');
select summit.finish_job_run('presence-sweep', true, 'swept 0');
select ok(summit.release_job_lease('presence-sweep'), 'the lease is released');

select tests.freeze_time('2026-02-01 09:04:59+00');
select ok(not summit.start_job_run('presence-sweep', interval '5 minutes', 'worker-b'),
  'another worker does not start it again within the interval');
select tests.freeze_time('2026-02-01 09:05:00+00');
select ok(summit.start_job_run('presence-sweep', interval '5 minutes', 'worker-b'), 'after the interval it starts');
select summit.finish_job_run('presence-sweep', false, 'connection lost');
select ok(summit.start_job_run('presence-sweep', interval '5 minutes', 'worker-a'), 'after a failure it may run again at once');
select is((select runs from summit.job_runs where job = 'presence-sweep'), 3::bigint, 'every run is counted');

-- The history: one row a run, the one cut short marked abandoned by the next start.
select summit.start_job_run('weather-refresh', interval '1 minute', 'worker-a');
select tests.freeze_time('2026-02-01 09:06:00+00');
select ok(summit.start_job_run('weather-refresh', interval '1 minute', 'worker-b'),
  'a run never finished (its connection died) does not block the next');
select summit.finish_job_run('weather-refresh', true, 'refreshed 0');
select results_eq($$select worker, outcome, finished_at from summit.job_run_history where job = 'weather-refresh' order by id$$,
  $$values ('worker-a', 'abandoned', null::timestamptz), ('worker-b', 'succeeded', '2026-02-01 09:06:00+00'::timestamptz)$$,
  'the history keeps each run, the one cut short abandoned');
select is((select count(*) from summit.job_run_history where job = 'presence-sweep'), 3::bigint,
  'a run that did not start (not due) leaves no history');
select tests.freeze_time('2026-02-09 09:06:00+00');
select summit.start_job_run('weather-refresh', interval '1 minute', 'worker-a');
select is((select count(*) from summit.job_run_history where job = 'weather-refresh'), 1::bigint,
  'runs older than a week are forgotten');

select tests.act_as(tests.create_user('rider@example.test'));
select throws_ok($$select summit.start_job_run('presence-sweep', interval '1 minute', 'me')$$, '42501', null,
  'clients cannot touch job runs');
select throws_ok($$select count(*) from summit.job_run_history$$, '42501', null, 'clients cannot read the job history');

select * from finish();
rollback;
