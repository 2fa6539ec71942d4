-- Staging canonical manifests: apply_canonical_manifest validates everything
-- (rows, connectors, rendezvous overlay) before writing, stages the next
-- version, never moves the active pointer, stages nothing for unchanged
-- content and a new version for any change (the overlay included); built
-- manifests are never altered; only the service role applies.
begin;
select plan(64);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);

create function pg_temp.apply(p_trails jsonb, p_lifts jsonb, p_trail_count int default null, p_lift_count int default null,
                              p_connectors jsonb default '[]', p_points jsonb default '[]') returns integer
  language sql as $$
    select mountain.apply_canonical_manifest(
      p_resort_id => 'alpha',
      p_expected_trail_count => coalesce(p_trail_count, jsonb_array_length(p_trails)),
      p_expected_lift_count => coalesce(p_lift_count, jsonb_array_length(p_lifts)),
      p_trails => p_trails, p_lifts => p_lifts, p_connectors => p_connectors, p_rendezvous_points => p_points)
  $$;
create function pg_temp.hash(p_version int) returns text
  language sql as $$
    select content_hash from mountain.resort_canonical_manifest where resort_id = 'alpha' and manifest_version = p_version
  $$;
create function pg_temp.overlay(p_version int) returns jsonb
  language sql as $$
    select coalesce(jsonb_agg(jsonb_build_object('anchor', anchor_osm_node_id, 'kind', kind, 'name', display_name,
                                                 'confidence', confidence, 'quality', quality) order by anchor_osm_node_id), '[]')
    from mountain.canonical_rendezvous_point where resort_id = 'alpha' and manifest_version = p_version
  $$;
-- A stand-in for the Swift builder: a blob row with made-up content.
create function pg_temp.build(p_version int, p_fill text) returns jsonb
  language sql as $$
    select mountain.record_resort_graph_blob('alpha', p_version, '2025-01-01', 'v15', convert_to(p_fill, 'UTF8'),
      repeat(p_fill, 64), encode(sha256(convert_to(p_fill, 'UTF8')), 'hex'), '3:2:00000000000000aa', 3, 2, 100)
  $$;

\set trails '[{"name": "Olympic", "difficulty": "blue", "osm_way_ids": ["101", "102"], "length_m": 1200}, {"name": "Gully", "difficulty": "black", "osm_way_ids": [103]}]'
\set lifts '[{"name": "Summit Express", "lift_type": "chair_lift", "capacity": 4, "ride_time_s": 420, "osm_way_ids": ["201"]}]'
\set connectors '[{"connector_id": 9000000000000, "from_osm_node_id": 11, "to_osm_node_id": 12, "bidirectional": false, "evidence": {"distance_m": 14}}]'
\set lodge '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "Base Lodge", "confidence": 1, "quality": 0.9}]'

-- Only the service role stages.
select tests.create_user('rider@example.test') as rider \gset
select tests.act_as(:'rider');
select throws_ok($$select pg_temp.apply('[]', '[]')$$, '42501', null, 'an authenticated user cannot apply a manifest');
select throws_ok(format($$select pg_temp.apply('[]', '[]', p_points => %L)$$, :'lodge'), '42501', null,
  'nor set a rendezvous overlay through it');
select throws_ok($$select mountain.canonical_manifest_document('alpha', 1)$$, '42501', null,
  'an authenticated user cannot read a staged manifest document');
select tests.act_as_anon();
select throws_ok($$select pg_temp.apply('[]', '[]')$$, '42501', null, 'anon cannot apply a manifest');
select throws_ok(format($$select pg_temp.apply('[]', '[]', p_points => %L)$$, :'lodge'), '42501', null,
  'nor set a rendezvous overlay through it');

select tests.clear_authentication();
select is((select array_agg(r.rolname::text order by r.rolname) from pg_roles r
           where r.rolname in ('anon', 'authenticated', 'service_role')
             and has_function_privilege(r.oid, 'mountain.apply_canonical_manifest(text, integer, integer, jsonb, jsonb, jsonb, jsonb, integer, integer, boolean, date, text[], text)', 'execute')),
  array['service_role'], 'of the API roles only the service role executes apply_canonical_manifest');
select is((select count(*)::int from pg_proc p join pg_namespace n on n.oid = p.pronamespace
           where n.nspname = 'mountain' and p.proname = 'apply_canonical_manifest'), 1,
  'there is one apply_canonical_manifest (no older signature left beside it)');
select hasnt_function('mountain', 'replace_canonical_rendezvous_points',
  'the overlay has no second way in: replace_canonical_rendezvous_points is gone');

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
select throws_ok($$select pg_temp.apply('[{"name": "A", "osm_way_ids": ["1"]}]', '[]', null, null,
  '[{"connector_id": 9000000000000, "from_osm_node_id": 9223372036854775808, "to_osm_node_id": 6}]')$$,
  'P0001', 'invalid_manifest_row', 'a node id beyond bigint is refused');
select throws_ok($$select mountain.apply_canonical_manifest('nowhere', 0, 0, '[]', '[]')$$,
  'P0001', 'resort_not_found', 'an unknown resort is refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points => '{}')$$,
  'P0001', 'invalid_rendezvous_point', 'an overlay that is not an array is refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points =>
  '[{"anchor_osm_node_id": 11, "kind": "hut", "display_name": "Hut", "confidence": 1, "quality": 1}]')$$,
  'P0001', 'invalid_rendezvous_point', 'an unknown rendezvous kind is refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points =>
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "  ", "confidence": 1, "quality": 1}]')$$,
  'P0001', 'invalid_rendezvous_point', 'a rendezvous point without a display name is refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points =>
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "Lodge", "confidence": 1.5, "quality": 1}]')$$,
  'P0001', 'invalid_rendezvous_point', 'a confidence outside 0…1 is refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points =>
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "A", "confidence": 1, "quality": 1},
    {"anchor_osm_node_id": "11", "kind": "summit", "display_name": "B", "confidence": 1, "quality": 1}]')$$,
  'P0001', 'invalid_rendezvous_point', 'two rendezvous points on one anchor are refused');
select throws_ok($$select pg_temp.apply('[]', '[]', p_points =>
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "name": "Lodge", "confidence": 1, "quality": 1}]')$$,
  'P0001', 'invalid_manifest_row', 'a misspelt rendezvous field is refused, not dropped');
select is((select count(*)::int from mountain.resort_canonical_manifest), 0, 'no refused apply wrote a manifest');
select is((select count(*)::int from mountain.canonical_trail) + (select count(*)::int from mountain.canonical_lift)
          + (select count(*)::int from mountain.canonical_rendezvous_point), 0,
  'no refused apply wrote a row');

-- Staging.
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors'), 1, 'the first manifest is version 1');
select is((select status from mountain.resort_canonical_manifest where resort_id = 'alpha' and manifest_version = 1), 'staged',
  'an applied manifest is staged');
select is((select array_agg(name order by name) from mountain.canonical_trail where manifest_version = 1),
  array['Gully', 'Olympic'], 'its trail rows are stored');
select is((select lift_type from mountain.canonical_lift where manifest_version = 1), 'chair_lift', 'its lift row is stored');
select is((select bidirectional from mountain.canonical_connector where manifest_version = 1), false, 'its connector is stored');
select is(pg_temp.apply(:'trails', :'lifts', null, null,
  '[{"connector_id": "9000000000000", "from_osm_node_id": 11, "to_osm_node_id": 12, "bidirectional": false}]'),
  1, 'the same content again stages nothing and answers the existing version');
select is(pg_temp.overlay(1), '[]', 'without an overlay it has no rendezvous points');

-- The overlay is part of the manifest's content.
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors', :'lodge'), 2,
  'the same rows with a rendezvous overlay stage the next version');
select isnt(pg_temp.hash(2), pg_temp.hash(1), 'whose content hash differs');
select is(pg_temp.overlay(2), '[{"anchor": 11, "kind": "lodge", "name": "Base Lodge", "confidence": 1, "quality": 0.9}]',
  'its overlay is stored with it');
select is((select array_agg(name order by name) from mountain.canonical_trail where manifest_version = 2),
  array['Gully', 'Olympic'], 'beside a copy of the rows');
select is(pg_temp.overlay(1), '[]', 'and version 1 is untouched');
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors',
  '[{"anchor_osm_node_id": "11", "kind": "lodge", "display_name": " Base Lodge ", "confidence": 1.0, "quality": 0.90}]'), 2,
  'the same overlay again (spelt differently) stages nothing and answers version 2');
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors',
  '[{"anchor_osm_node_id": 11, "kind": "lodge", "display_name": "Base Lodge", "confidence": 1, "quality": 0.5}]'), 3,
  'changing only one score of the overlay stages the next version');
select isnt(pg_temp.hash(3), pg_temp.hash(2), 'with its own content hash');
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors'), 4,
  'dropping the overlay is a change too: the next version');
select is(pg_temp.hash(4), pg_temp.hash(1), 'and hashes as version 1 did (an empty overlay adds nothing)');
select is((select count(*)::int from mountain.resort_canonical_manifest where resort_id = 'alpha'), 4,
  'no apply of equal content added a version');

-- Document for the builder.
select is(mountain.canonical_manifest_document('alpha', 1) -> 'trails' -> 1 -> 'osm_way_ids', '["101", "102"]'::jsonb,
  'the build document lists way ids as text, in row order by name');
select is(mountain.canonical_manifest_document('alpha', 1) ->> 'expected_lift_count', '1', 'and the expected counts');
select is(mountain.canonical_manifest_document('alpha', 2) -> 'rendezvous_points' -> 0 ->> 'display_name', 'Base Lodge',
  'and the rendezvous overlay');

-- Once built, a manifest is never altered: a change is a new version.
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors', :'lodge'), 5,
  'the overlay of version 2 again, after other versions, is the next version');
select is(pg_temp.build(5, 'a') ->> 'cached', 'false', 'a build of v5 is recorded');
select pg_temp.hash(5) as built_hash \gset
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors', :'lodge'), 5,
  'applying the built content again answers the built version');
select is(pg_temp.apply(:'trails', :'lifts', null, null, :'connectors',
  '[{"anchor_osm_node_id": 12, "kind": "liftBase", "display_name": "Express Base", "confidence": 0.8, "quality": 0.7}]'), 6,
  'a new overlay after the build stages the next version');
select is(pg_temp.overlay(5), '[{"anchor": 11, "kind": "lodge", "name": "Base Lodge", "confidence": 1, "quality": 0.9}]',
  'the built version keeps its overlay');
select is(pg_temp.hash(5), :'built_hash', 'and its content hash');
select is((select sha256 from mountain.resort_graph_blob where resort_id = 'alpha' and manifest_version = 5), repeat('a', 64),
  'and its blob');
select throws_ok(format($$select pg_temp.apply(%L, %L, null, null, %L, %L)$$, :'trails', :'lifts', :'connectors',
  '[{"anchor_osm_node_id": 12, "kind": "liftBase", "display_name": "Express Base", "confidence": 0.8, "quality": 2}]'),
  'P0001', 'invalid_rendezvous_point', 'a bad overlay beside valid rows is refused');
select is((select count(*)::int from mountain.resort_canonical_manifest where resort_id = 'alpha'), 6,
  'and stages nothing: all or nothing');
select throws_ok($$update mountain.canonical_trail set difficulty = 'green' where manifest_version = 5 and name = 'Gully'$$,
  'P0001', 'manifest_frozen', 'rows of a built manifest cannot change');
select throws_ok($$delete from mountain.canonical_rendezvous_point where manifest_version = 5$$,
  'P0001', 'manifest_frozen', 'nor can its overlay');

select is(pg_temp.apply('[{"name": "Olympic", "difficulty": "green", "osm_way_ids": ["101", "102"]}]', :'lifts', null, null,
  '[{"connector_id": 9000000000001, "from_osm_node_id": 8480000005400000000, "to_osm_node_id": "2000000000000000000"}]'), 7,
  'changed rows stage the next version');
-- Node ids Summit derives from GeoJSON coordinates have 19 digits.
select is((select array[from_osm_node_id, to_osm_node_id] from mountain.canonical_connector where manifest_version = 7),
  array[8480000005400000000, 2000000000000000000]::bigint[], 'a connector keeps 19-digit node ids exactly');
select is(mountain.canonical_manifest_document('alpha', 7) -> 'connectors' -> 0 -> 'from_osm_node_id', '8480000005400000000'::jsonb,
  'and the build document carries them exactly');
select is((select count(*)::int from mountain.resort_canonical_active), 0, 'neither staging nor building creates an active pointer');

select * from finish();
rollback;
