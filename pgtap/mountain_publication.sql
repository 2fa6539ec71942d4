-- Publishing and fetching canonical graphs: publish validates the manifest
-- and the exact blob identity and moves the active pointer atomically;
-- publishing an older identity rolls back; blobs and history are immutable;
-- get_resort_graph answers cache_valid only on a manifest + SHA match and
-- replays exact identities from history; clients see published data only.
begin;
select plan(45);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);

create function pg_temp.apply(p_trail text) returns integer
  language sql as $$
    select mountain.apply_canonical_manifest('alpha', 1, 1,
      jsonb_build_array(jsonb_build_object('name', p_trail, 'osm_way_ids', jsonb_build_array('101'))),
      '[{"name": "Summit Express", "osm_way_ids": ["201"]}]')
  $$;
-- A stand-in for the Swift builder: a blob row with made-up content 'p_fill…'.
create function pg_temp.build(p_version int, p_fill text) returns jsonb
  language sql as $$
    select mountain.record_resort_graph_blob('alpha', p_version, '2025-01-01', 'v15', convert_to(p_fill, 'UTF8'),
      repeat(p_fill, 64), encode(sha256(convert_to(p_fill, 'UTF8')), 'hex'), '3:2:00000000000000aa', 3, 2, 100)
  $$;
create function pg_temp.publish(p_version int, p_fill text) returns jsonb
  language sql as $$
    select mountain.publish_canonical_manifest('alpha', p_version, 'v15', '2025-01-01', repeat(p_fill, 64))
  $$;
create function pg_temp.active_manifest() returns integer
  language sql as $$
    select p.manifest_version from mountain.resort_canonical_active a
    join mountain.resort_canonical_publication p on p.id = a.publication_id where a.resort_id = 'alpha'
  $$;

select tests.create_user('rider@example.test') as rider \gset
select tests.freeze_time('2026-02-01 09:00:00+00');
select tests.act_as_service();
select pg_temp.apply('Olympic') as v1 \gset
select pg_temp.apply('Olympic Run') as v2 \gset

-- Only the service role publishes or records builds.
select tests.act_as(:'rider');
select throws_ok($$select pg_temp.publish(1, 'a')$$, '42501', null, 'an authenticated user cannot publish');
select throws_ok($$select pg_temp.build(1, 'a')$$, '42501', null, 'an authenticated user cannot record a build');
select tests.act_as_anon();
select throws_ok($$select pg_temp.publish(1, 'a')$$, '42501', null, 'anon cannot publish');
select throws_ok($$select mountain.get_resort_graph('alpha')$$, '42501', null, 'anon cannot fetch graphs');

-- Nothing published yet.
select tests.act_as(:'rider');
select is(mountain.get_resort_graph('alpha') ->> 'status', 'no_canonical_dataset', 'no publication: no_canonical_dataset');
select tests.act_as_service();

-- Publish validates the exact identity.
select throws_ok($$select pg_temp.publish(1, 'a')$$, 'P0001', 'graph_blob_not_found', 'an unbuilt manifest cannot be published');
select is(pg_temp.build(1, 'a') ->> 'content_sha256', repeat('a', 64), 'v1 is built');
select throws_ok($$select pg_temp.build(1, 'b')$$, 'P0001', 'graph_blob_exists',
  'a rebuild of the same tuple with other content is refused');
select is(pg_temp.build(1, 'a') ->> 'cached', 'true', 'the same build again answers the stored row');
select throws_ok($$select mountain.record_resort_graph_blob('alpha', 2, '2025-01-01', 'v15', '\x00', repeat('c', 64),
  repeat('0', 64), '3:2:00000000000000aa', 3, 2, 10)$$, 'P0001', 'blob_sha256_mismatch',
  'bytes that do not hash to blob_sha256 are refused');
select throws_ok($$select pg_temp.publish(1, 'b')$$, 'P0001', 'content_sha256_mismatch',
  'publishing another SHA than the build''s is refused');
select throws_ok($$select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', 'AAAA')$$,
  'P0001', 'invalid_content_sha256', 'a malformed SHA is refused');
select throws_ok($$select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-02', repeat('a', 64))$$,
  'P0001', 'graph_blob_not_found', 'the snapshot date is part of the identity');
select is((select count(*)::int from mountain.resort_canonical_publication), 0, 'refused publishes recorded nothing');
select is((select count(*)::int from mountain.resort_canonical_active), 0, 'refused publishes moved no pointer');

-- Publish re-validates the manifest's counts: a manifest whose rows no
-- longer match its expected counts is refused, and nothing moves.
insert into mountain.resort_canonical_manifest (resort_id, manifest_version, expected_trail_count, expected_lift_count, content_hash)
values ('alpha', 9, 2, 0, repeat('9', 64));
insert into mountain.canonical_trail (resort_id, manifest_version, name, osm_way_ids) values ('alpha', 9, 'Lonely', '{101}');
select pg_temp.build(9, '9') as built_v9 \gset
select throws_ok($$select pg_temp.publish(9, '9')$$, 'P0001', 'count_mismatch',
  'a manifest whose rows do not match its expected counts is not published');
select is((select count(*)::int from mountain.resort_canonical_publication), 0, 'and nothing was recorded');

-- First publication.
select is(pg_temp.publish(1, 'a') ->> 'status', 'published', 'v1 is published');
select is(pg_temp.active_manifest(), 1, 'the active pointer is on v1');
select is((select status from mountain.resort_canonical_manifest where manifest_version = 1), 'published', 'v1 is marked published');
select is(pg_temp.publish(1, 'a') ->> 'status', 'already_active', 'publishing the active identity again changes nothing');

-- Staging and building v2 leaves clients on v1.
select pg_temp.build(2, 'b') as built_v2 \gset
select is(pg_temp.active_manifest(), 1, 'staging and building v2 leaves the active pointer on v1');
select tests.act_as(:'rider');
select is(mountain.get_resort_graph('alpha') ->> 'manifest_version', '1', 'a built but unpublished v2 is not served');
select is((select count(*)::int from mountain.resort_graph_blob where manifest_version = 2), 0, 'clients cannot see the v2 blob');
select is((select count(*)::int from mountain.resort_canonical_manifest where manifest_version = 2), 0,
  'clients cannot see the staged v2 manifest');
select is((select array_agg(manifest_version) from mountain.current_resort_canonical_manifest), array[1],
  'current_resort_canonical_manifest shows only the active v1');

-- cache_valid only when manifest version and SHA both match.
select is(mountain.get_resort_graph('alpha', 1, repeat('a', 64)) ->> 'status', 'cache_valid', 'manifest + SHA match: cache_valid');
select ok(mountain.get_resort_graph('alpha', 1, repeat('a', 64)) -> 'blob' is null, 'a cache_valid answer carries no blob');
select is(mountain.get_resort_graph('alpha', 1, repeat('b', 64)) ->> 'status', 'fetch', 'same manifest, other SHA: fetch');
select is(mountain.get_resort_graph('alpha', 2, repeat('a', 64)) ->> 'status', 'fetch', 'same SHA, other manifest: fetch');
select is(mountain.get_resort_graph('alpha', 1, null) ->> 'status', 'fetch', 'manifest alone: fetch');
select is(decode(mountain.get_resort_graph('alpha') ->> 'blob', 'base64'), convert_to('a', 'UTF8'), 'fetch returns the exact blob bytes');

-- Publish v2, then roll back to v1.
select tests.act_as_service();
select is(pg_temp.publish(2, 'b') ->> 'status', 'published', 'v2 is published');
select is(pg_temp.active_manifest(), 2, 'the pointer moved to v2');
select is(pg_temp.publish(1, 'a') ->> 'status', 'rolled_back', 'publishing the older v1 identity is a rollback');
select is(pg_temp.active_manifest(), 1, 'the pointer is back on v1');
select is((select count(*)::int from mountain.resort_canonical_publication), 2, 'history keeps both identities once each');
select is((select array_agg(rollback order by id) from mountain.resort_canonical_activation), array[false, false, true],
  'the activation log records the publish, the publish and the rollback');

-- Exact replay resolves history, active or not.
select tests.act_as(:'rider');
select is(mountain.get_resort_graph('alpha', p_manifest_version => 2, p_graph_version => 'v15', p_content_sha256 => repeat('b', 64)) ->> 'dataset_version',
  'm2-v15-' || repeat('b', 64), 'an exact replay of the inactive v2 identity is served');
select is(mountain.get_resort_graph('alpha', p_manifest_version => 2, p_graph_version => 'v15', p_content_sha256 => repeat('a', 64)) ->> 'status',
  'not_found', 'an identity never published is not_found');
select is(mountain.get_resort_graph('alpha', p_manifest_version => 2) ->> 'exact', 'false',
  'a manifest-only request is served but never as an exact match');
select throws_ok($$select mountain.get_resort_graph('alpha', p_manifest_version => 2, p_content_sha256 => repeat('b', 64))$$,
  'P0001', 'incomplete_identity', 'an exact replay needs the graph version too');

-- Blobs and history are immutable, even for the service role.
select tests.act_as_service();
select throws_ok($$update mountain.resort_graph_blob set fingerprint = '3:2:ffffffffffffffff' where manifest_version = 1$$,
  'P0001', 'graph_blob_immutable', 'a blob cannot be updated');
select throws_ok($$delete from mountain.resort_graph_blob where manifest_version = 2$$,
  'P0001', 'graph_blob_immutable', 'a blob cannot be deleted');
select throws_ok($$delete from mountain.resort_canonical_publication$$,
  'P0001', 'publication_immutable', 'publication history cannot be deleted');

select * from finish();
rollback;
