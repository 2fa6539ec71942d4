-- Which resort a position is at (resolve_resort_id: the box holding it, the
-- nearest centre where boxes overlap, a box within 3 km, else none), and an
-- app's build ask (request_graph_build: never a build; recorded once per
-- manifest with a count, only while a staged manifest waits).
begin;
select plan(15);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon) values
  ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05),
  ('beta', 'Beta Ridge', 46.08, 7.08, 46.2, 7.2, 46.14, 7.14);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);

select tests.act_as_anon();
select is(mountain.resolve_resort_id(46.02, 7.02), 'alpha', 'inside one box: that resort');
select is(mountain.resolve_resort_id(46.09, 7.09), 'alpha', 'where boxes overlap: the nearest centre');
select is(mountain.resolve_resort_id(46.095, 7.099), 'beta', 'the overlap nearer the other centre: the other resort');
select is(mountain.resolve_resort_id(45.99, 7.05), 'alpha', 'a car park 1.1 km below the box: still the resort');
select is(mountain.resolve_resort_id(45.95, 7.05), null, 'more than 3 km from every box: no resort');
select is(mountain.resolve_resort_id(95, 7.05), null, 'not a position: no resort');

-- The gateway asks as the service role; apps cannot call it themselves.
select throws_ok($$select mountain.request_graph_build('alpha')$$, '42501', null, 'anon cannot call request_graph_build');
select tests.act_as_service();
-- No manifest yet: nothing to ask for.
select is(mountain.request_graph_build('alpha') ->> 'status', 'no_manifest', 'a resort without a manifest has nothing to build');
select is(mountain.request_graph_build('nowhere') ->> 'status', 'no_manifest', 'an unknown resort neither');

select mountain.apply_canonical_manifest('alpha', 1, 1,
  '[{"name": "Olympic", "osm_way_ids": ["101"]}]', '[{"name": "Summit Express", "osm_way_ids": ["201"]}]');

select is(mountain.request_graph_build('alpha') ->> 'status', 'requested', 'a staged manifest: the ask is recorded');
select is(mountain.request_graph_build('alpha') ->> 'request_count', '2', 'a second ask counts on the same row');
select tests.act_as(tests.create_user('rider@example.test'));
select throws_ok($$select * from mountain.graph_build_requests$$, '42501', null, 'apps cannot read the asks');
select tests.act_as_service();
select is((select count(*) from mountain.resort_graph_blob), 0::bigint, 'an ask builds nothing');
select is((select request_count from mountain.graph_build_requests where resort_id = 'alpha' and manifest_version = 1), 2,
  'the operator sees two asks for manifest 1');

-- Once the newest manifest is published, the answer says so and records nothing.
select mountain.record_resort_graph_blob('alpha', 1, '2025-01-01', 'v15', convert_to('a', 'UTF8'),
  repeat('a', 64), encode(sha256(convert_to('a', 'UTF8')), 'hex'), '3:2:00000000000000aa', 3, 2, 100);
select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', repeat('a', 64));
select is(mountain.request_graph_build('alpha') ->> 'status', 'published', 'the newest manifest is active: published');

select * from finish();
rollback;
