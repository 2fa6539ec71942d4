-- The status sidecar: keyed by an exact published identity, one row per
-- resort and UTC hour, usable only inside its window; refused input keeps
-- the previous sidecar. Clients read it; only the service role writes.
begin;
select plan(14);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);

select tests.create_user('rider@example.test') as rider \gset
select tests.freeze_time('2026-02-01 09:10:00+00');
select tests.act_as_service();
select mountain.apply_canonical_manifest('alpha', 0, 1, '[]', '[{"name": "Summit Express", "osm_way_ids": ["201"]}]') as v1 \gset
select mountain.record_resort_graph_blob('alpha', 1, '2025-01-01', 'v15', '\x61', repeat('a', 64),
  encode(sha256('\x61'), 'hex'), '3:2:00000000000000aa', 3, 2, 100) as built \gset

create function pg_temp.record(p_observed timestamptz, p_edges jsonb, p_sha text default repeat('a', 64)) returns jsonb
  language sql as $$
    select mountain.record_resort_status('alpha', 1, 'v15', p_sha, p_observed, 'epic-terrain-feed', p_edges)
  $$;

select throws_ok($$select pg_temp.record('2026-02-01 09:05:00+00', '{"l201": {"is_open": true}}')$$,
  'P0001', 'identity_not_published', 'status for an unpublished identity is refused');
select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', repeat('a', 64)) as published \gset

select is(pg_temp.record('2026-02-01 09:05:00+00', '{"l201": {"is_open": true, "wait_minutes": 4}, "l201_r": {"is_open": false}}') ->> 'hour_key',
  '2026-02-01T09', 'status is stored under its UTC hour');
select is((select expires_at from mountain.resort_status), '2026-02-01 10:05:00+00'::timestamptz, 'it expires an hour after observation');
select throws_ok($$select pg_temp.record('2026-02-01 09:06:00+00', '{"chair 1": {"is_open": true}}')$$,
  'P0001', 'invalid_status_edges', 'keys must be stable edge ids');
select throws_ok($$select pg_temp.record('2026-02-01 09:06:00+00', '{"l201": {"is_open": "yes"}}')$$,
  'P0001', 'invalid_status_edges', 'is_open must be a boolean');
select throws_ok($$select pg_temp.record('2026-02-01 09:30:00+00', '{"l201": {"is_open": true}}')$$,
  'P0001', 'status_from_the_future', 'an observation more than 120 s ahead is refused');
select is((select edges -> 'l201' ->> 'wait_minutes' from mountain.resort_status), '4', 'refused refreshes keep the previous sidecar');

select tests.act_as(:'rider');
select throws_ok($$select pg_temp.record('2026-02-01 09:06:00+00', '{}')$$, '42501', null, 'clients cannot write status');
select is(mountain.get_resort_status('alpha', 1, 'v15', repeat('a', 64)) ->> 'usable', 'true', 'fresh status is usable');
select is(mountain.get_resort_status('alpha', 1, 'v15', repeat('a', 64)) -> 'edges' -> 'l201_r' ->> 'is_open', 'false',
  'clients read per-edge state');
select is(mountain.get_resort_graph('alpha') -> 'status_ref' ->> 'hour_key', '2026-02-01T09',
  'get_resort_graph points at the sidecar of the identity it serves');
select is(mountain.get_resort_status('alpha', 1, 'v15', repeat('b', 64)) ->> 'status', 'status_unavailable',
  'another identity has no status');
select tests.freeze_time('2026-02-01 10:05:00+00');
select is(mountain.get_resort_status('alpha', 1, 'v15', repeat('a', 64)) ->> 'usable', 'false', 'at expires_at status is no longer usable');
select tests.freeze_time('2026-02-01 09:03:00+00');
select is(mountain.get_resort_status('alpha', 1, 'v15', repeat('a', 64)) ->> 'usable', 'true',
  'an observation up to 120 s in the future is still usable');

select * from finish();
rollback;
