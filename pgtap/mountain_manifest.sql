-- Staging canonical manifests: apply_canonical_manifest validates everything
-- before writing, stages the next version, never moves the active pointer,
-- stages nothing for unchanged content; rendezvous overlays; built manifests
-- are frozen; only the service role applies.
begin;
select plan(34);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);

create function pg_temp.apply(p_trails jsonb, p_lifts jsonb, p_trail_count int default null, p_lift_count int default null,
                              p_connectors jsonb default '[]') returns integer
  language sql as $$
    select mountain.apply_canonical_manifest(
      p_resort_id => 'alpha',
      p_expected_trail_count => coalesce(p_trail_count, jsonb_array_length(p_trails)),
      p_expected_lift_count => coalesce(p_lift_count, jsonb_array_length(p_lifts)),
      p_trails => p_trails, p_lifts => p_lifts, p_connectors => p_connectors)
  $$;
-- A stand-in for the Swift builder: a blob row with made-up content.
create function pg_temp.build(p_version int, p_fill text) returns jsonb
  language sql as $$
    select mountain.record_resort_graph_blob('alpha', p_version, '2025-01-01', 'v15', convert_to(p_fill, 'UTF8'),
      repeat(p_fill, 64), encode(sha256(convert_to(p_fill, 'UTF8')), 'hex'), '3:2:00000000000000aa', 3, 2, 100)
  $$;

\set trails '[{"name": "Olympic", "difficulty": "blue", "osm_way_ids": ["101", "102"], "length_m": 1200}, {"name": "Gully", "difficulty": "black", "osm_way_ids": [103]}]'
\set lifts '[{"name": "Summit Express", "lift_type": "chair_lift", "capacity": 4, "ride_time_s": 420, "osm_way_ids": ["201"]}]'

-- Only the service role stages.
select tests.create_user('rider@example.test') as rider \gset
select tests.act_as(:'rider');
select throws_ok($$select pg_temp.apply('[]', '[]')$$, '42501', null, 'an authenticated user cannot apply a manifest');
select throws_ok($$select mountain.replace_canonical_rendezvous_points('alpha', 1, '[]')$$, '42501', null,
  'an authenticated user cannot replace rendezvous points');
select throws_ok($$select mountain.canonical_manifest_document('alpha', 1)$$, '42501', null,
  'an authenticated user cannot read a staged manifest document');
select tests.act_as_anon();
select throws_ok($$select pg_temp.apply('[]', '[]')$$, '42501', null, 'anon cannot apply a manifest');

select tests.act_as_service();

-- Bad input is refused before anything is written.
select throws_ok(format($$select pg_temp.apply(%L, %L, 3)$$, :'trails', :'lifts'), 'P0001', 'count_mismatch',
  'trail rows must equal the expected trail count');
select throws_ok(format($$select pg_temp.apply(%L, %L, null, 2)$$, :'trails', :'lifts'), 'P0001', 'count_mismatch',
  'lift rows must equal the expected lift count');
select throws_ok($$select pg_temp.apply('[{"name": "Olympic", "osm_way_ids": ["1"]}, {"name": " Olympic ", "osm_way_ids": ["2"]}]', '[]')$$,
  'P0001', 'duplicate_identity', 'two trails with one name (after trimming) are refused');
select throws_ok($$select pg_temp.apply('[{"name": "A", "osm_way_ids": ["1"]}]', '[{"name": "L", "osm_way_ids": ["1"]}]')$$,
  'P0001', 'multiply_claimed', 'one way claimed by a trail and a lift is refused');
select throws_ok($$select pg_temp.apply('[{"name": "   ", "osm_way_ids": ["1"]}]', '[]')$$,
  'P0001', 'identity_name_missing', 'an empty name is refused');
select throws_ok($$select pg_temp.apply('[{"name": "Nowhere"}]', '[]')$$,
  'P0001', 'identity_source_missing', 'a row without ways must be a reviewed name-fallback row');
select throws_ok($$select pg_temp.apply('[{"name": "A", "osm_way_ids": ["1"], "difficulty": "purple"}]', '[]')$$,
  'P0001', 'invalid_manifest_row', 'an unknown difficulty is refused');
select throws_ok($$select pg_temp.apply('[{"name": "A", "osm_ways": ["1"]}]', '[]')$$,
  'P0001', 'invalid_manifest_row', 'a misspelt field is refused, not dropped');
select throws_ok($$select pg_temp.apply('[]', '[{"name": "L", "lift_type": "escalator", "osm_way_ids": ["5"]}]')$$,
  'P0001', 'invalid_manifest_row', 'an unknown lift type is refused');
select throws_ok($$select pg_temp.apply('[{"name": "A", "osm_way_ids": ["1"]}]', '[]', null, null,
  '[{"connector_id": 1, "from_osm_node_id": 5, "to_osm_node_id": 6}]')$$,
  'P0001', 'invalid_manifest_row', 'a connector id equal to a claimed way id is refused');
select throws_ok($$select mountain.apply_canonical_manifest('nowhere', 0, 0, '[]', '[]')$$,
  'P0001', 'resort_not_found', 'an unknown resort is refused');
select is((select count(*)::int from mountain.resort_canonical_manifest), 0, 'no refused apply wrote a manifest');
select is((select count(*)::int from mountain.canonical_trail) + (select count(*)::int from mountain.canonical_lift), 0,
  'no refused apply wrote a row');

-- Staging.
select is(pg_temp.apply(:'trails', :'lifts', null, null,
  '[{"connector_id": 9000000000000, "from_osm_node_id": 11, "to_osm_node_id": 12, "bidirectional": false, "evidence": {"distance_m": 14}}]'),
  1, 'the first manifest is version 1');
select is((select status from mountain.resort_canonical_manifest where resort_id = 'alpha' and manifest_version = 1), 'staged',
  'an applied manifest is staged');
select is((select array_agg(name order by name) from mountain.canonical_trail where manifest_version = 1),
  array['Gully', 'Olympic'], 'its trail rows are stored');
select is((select lift_type from mountain.canonical_lift where manifest_version = 1), 'chair_lift', 'its lift row is stored');
select is((select bidirectional from mountain.canonical_connector where manifest_version = 1), false, 'its connector is stored');
select is(pg_temp.apply(:'trails', :'lifts', null, null,
  '[{"connector_id": "9000000000000", "from_osm_node_id": 11, "to_osm_node_id": 12, "bidirectional": false}]'),
  1, 'the same content again stages nothing and answers the existing version');
select is(pg_temp.apply('[{"name": "Olympic", "difficulty": "green", "osm_way_ids": ["101", "102"]}]', :'lifts'), 2,
  'changed content stages the next version');
select is((select count(*)::int from mountain.resort_canonical_active), 0, 'staging never creates an active pointer');

-- Document for the builder.
select is(mountain.canonical_manifest_document('alpha', 1) -> 'trails' -> 1 -> 'osm_way_ids', '["101", "102"]'::jsonb,
  'the build document lists way ids as text, in row order by name');
select is(mountain.canonical_manifest_document('alpha', 1) ->> 'expected_lift_count', '1', 'and the expected counts');

-- Rendezvous overlay.
select is(mountain.replace_canonical_rendezvous_points('alpha', 1,
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "Base Lodge", "confidence": 1, "quality": 0.9}]'), 1,
  'rendezvous points are set on a staged manifest');
select throws_ok($$select mountain.replace_canonical_rendezvous_points('alpha', 1,
  '[{"anchor_osm_node_id": 11, "kind": "hut", "display_name": "Hut", "confidence": 1, "quality": 1}]')$$,
  'P0001', 'invalid_rendezvous_point', 'an unknown rendezvous kind is refused');
select is((select display_name from mountain.canonical_rendezvous_point where manifest_version = 1), 'Base Lodge',
  'a refused replacement keeps the previous overlay');

-- Once built, a manifest is frozen.
select is(pg_temp.build(1, 'a') ->> 'cached', 'false', 'a build of v1 is recorded');
select throws_ok($$select mountain.replace_canonical_rendezvous_points('alpha', 1, '[]')$$,
  'P0001', 'manifest_already_built', 'the overlay of a built manifest cannot be replaced');
select throws_ok($$update mountain.canonical_trail set difficulty = 'green' where manifest_version = 1 and name = 'Gully'$$,
  'P0001', 'manifest_frozen', 'rows of a built manifest cannot change');
select is((select count(*)::int from mountain.resort_canonical_active), 0, 'building never creates an active pointer');

select * from finish();
rollback;
