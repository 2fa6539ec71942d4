-- Job leases: a job starts only when no worker finished it within its
-- interval; a failed run may be retried at once. Leases are advisory locks.
begin;
select plan(8);

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

select tests.act_as(tests.create_user('rider@example.test'));
select throws_ok($$select summit.start_job_run('presence-sweep', interval '1 minute', 'me')$$, '42501', null,
  'clients cannot touch job runs');

select * from finish();
rollback;
