-- Ski days: owner-scoped runs, idempotent imports, recomputes only by the
-- owner, friends see aggregates (stats, edge speeds) and never raw runs.
begin;
select plan(30);

select tests.create_user('alice@example.test', null, '{"username":"alice"}') as alice \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
select tests.create_user('carol@example.test', null, '{"username":"carol"}') as carol \gset
insert into social.friendships (user_a, user_b) values (least(:'alice'::uuid, :'bob'::uuid), greatest(:'alice'::uuid, :'bob'::uuid));
select tests.freeze_time('2025-03-01 12:00:00+00');

-- Two runs: one strict with two edge observations (one feeds learning), one unmatched.
\set runs '[{"run_at":"2025-03-01T09:00:00Z","ended_at":"2025-03-01T09:04:00Z","dedup_hash":"h1","resort_id":"r1","source":"gpx","source_file_hash":"f1","speed_ms":10,"peak_speed_ms":18,"duration_s":240,"vertical_m":400,"distance_m":2400,"max_grade_deg":21,"match_method":"strict","match_confidence":0.8,"edge_id":"t1","matched_edge_ids":["t1","t2"],"edge_observations":[{"edge_id":"t1","speed_ms":12,"duration_s":100,"feeds_learning":true},{"edge_id":"t2","speed_ms":3,"duration_s":10,"feeds_learning":false}]},{"run_at":"2025-03-01T10:00:00Z","ended_at":"2025-03-01T10:05:00Z","dedup_hash":"h2","resort_id":"r1","source":"gpx","source_file_hash":"f1","speed_ms":8,"peak_speed_ms":14,"duration_s":300,"vertical_m":350,"distance_m":2000,"max_grade_deg":18,"match_method":"none"}]'

select tests.act_as(:'alice');
select is(activity.save_imported_runs(:'runs') ->> 'inserted', '2', 'a first import stores both runs');
select is(activity.save_imported_runs(:'runs') - 'ids', '{"inserted":0,"duplicates":2}'::jsonb, 're-importing the same runs changes nothing');
select is(activity.save_imported_runs('[{"run_at":"2025-03-01T09:00:05Z","ended_at":"2025-03-01T09:04:10Z","dedup_hash":"other-app","resort_id":"r1","source":"slopes","source_file_hash":"f2","duration_s":245,"vertical_m":400,"distance_m":2400}]') ->> 'duplicates',
  '1', 'the same descent exported by another app (other hash, same time) is a duplicate');
select is((select count(*)::int from activity.imported_runs), 2, 'the owner reads her two runs');
select throws_ok($$select activity.save_imported_runs('[{"run_at":"2025-03-01T11:00:00Z","ended_at":"2025-03-01T10:00:00Z","dedup_hash":"x","resort_id":"r1","source":"gpx"}]')$$,
  'P0001', 'run_invalid', 'a run that ends before it starts is refused');
select is((select count(*)::int from activity.imported_runs), 2, 'a refused batch writes nothing');
select throws_ok($$insert into activity.imported_runs (profile_id, resort_id, duration_s, vertical_m, distance_m, run_at, ended_at, dedup_hash, source, source_file_hash)
  values (auth.uid(), 'r1', 1, 1, 1, now(), now(), 'direct', 'gpx', 'f')$$, '42501', null, 'runs cannot be inserted directly, only through the RPC');

-- Stats and edge speeds were recomputed by the import.
select is((select runs_count from activity.profile_stats), 2, 'profile_stats counts the runs');
select is((select vertical_m from activity.profile_stats), 750::double precision, 'profile_stats sums the vertical');
select is((select top_speed_ms from activity.profile_stats), 18::double precision, 'top speed is the highest peak');
select is((select days_skied from activity.profile_stats), 1, 'both runs were on one day');
select is((select array_agg(edge_id order by edge_id) from activity.profile_edge_speeds), array['t1'],
  'only observations that feed learning (strict, flagged) become edge speeds');
select is((select rolling_speed_ms from activity.profile_edge_speeds where edge_id = 't1'), 12::double precision, 'the edge speed is the observed pace');

-- A friend sees aggregates, never raw runs.
select tests.act_as(:'bob');
select is((select count(*)::int from activity.imported_runs), 0, 'a friend reads none of her runs');
select is((select runs_count from activity.profile_stats where profile_id = :'alice'), 2, 'a friend reads her stats');
select is((select count(*)::int from activity.profile_edge_speeds where profile_id = :'alice'), 1, 'a friend reads her edge speeds');
select throws_ok(format('select activity.recompute_profile_stats(%L)', :'alice'), 'P0001', 'not_activity_owner', 'a friend cannot recompute her stats');
select throws_ok(format('select activity.recompute_profile_edge_speeds(%L)', :'alice'), 'P0001', 'not_activity_owner', 'a friend cannot recompute her edge speeds');
delete from activity.imported_runs where profile_id = :'alice';
select is(activity.delete_imported_run((select id from activity.imported_runs limit 1)), false, 'delete_imported_run finds nothing of hers for him');

-- A stranger sees nothing.
select tests.act_as(:'carol');
select is((select count(*)::int from activity.imported_runs), 0, 'a stranger reads none of her runs');
select is((select count(*)::int from activity.profile_stats), 0, 'a stranger reads no stats');
select is((select count(*)::int from activity.profile_edge_speeds), 0, 'a stranger reads no edge speeds');
select throws_ok(format('select activity.recompute_profile_stats(%L)', :'alice'), 'P0001', 'not_activity_owner', 'a stranger cannot recompute her stats');

select tests.act_as_anon();
select throws_ok($$select activity.save_imported_runs('[]')$$, '42501', null, 'anon cannot import');

select tests.clear_authentication();
select is((select count(*)::int from activity.imported_runs where profile_id = :'alice'), 2, 'nobody else deleted her runs');

-- Recency weighting: an observation 60 days older than another counts half as much.
select tests.act_as(:'alice');
select is(activity.save_imported_runs('[{"run_at":"2024-12-31T09:00:00Z","ended_at":"2024-12-31T09:03:00Z","dedup_hash":"old","resort_id":"r1","source":"fit","source_file_hash":"f3","duration_s":180,"vertical_m":300,"distance_m":1500,"match_method":"strict","edge_observations":[{"edge_id":"t1","speed_ms":6,"duration_s":120,"feeds_learning":true}]}]') ->> 'inserted',
  '1', 'an older run is stored');
select is((select round(rolling_speed_ms::numeric, 3) from activity.profile_edge_speeds where edge_id = 't1'), 10.000::numeric,
  'the rolling speed weights by a 60-day half-life: (12·1 + 6·0.5)/1.5');
select is((select observation_count from activity.profile_edge_speeds where edge_id = 't1'), 2, 'both observations are counted');

-- The owner deletes a run through the RPC and the aggregates follow.
select is(activity.delete_imported_run((select id from activity.imported_runs where dedup_hash = 'h2')), true, 'the owner deletes her run');
select is((select runs_count from activity.profile_stats), 2, 'her stats were recomputed after the delete');

select * from finish();
rollback;
