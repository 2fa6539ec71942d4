-- Feed sources and the refresh rules: status refreshes within two minutes of
-- expiry, failed attempts wait five minutes, forecasts merge hourly; only the
-- service role configures or reads feeds.
begin;
select plan(17);

insert into mountain.resorts (id, name, lat_min, lon_min, lat_max, lon_max, center_lat, center_lon)
values ('alpha', 'Alpha Peak', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05),
       ('beta', 'Beta Ridge', 46.0, 7.0, 46.1, 7.1, 46.05, 7.05);
insert into mountain.osm_snapshots (resort_id, snapshot_date, format, source_name, bytes, sha256, byte_count)
values ('alpha', '2025-01-01', 'overpass_json', 'alpha.json', '\x7b7d', encode(sha256('\x7b7d'), 'hex'), 2);
select tests.create_user('rider@example.test') as rider \gset
select tests.freeze_time('2026-02-01 09:00:00+00');
select tests.act_as_service();

select throws_ok($$select mountain.set_feed_source('nowhere', 'status', 'https://example.com/s.json')$$,
  'P0001', 'unknown_resort', 'a feed belongs to a known resort');
select throws_ok($$select mountain.set_feed_source('alpha', 'status', 'ftp://example.com/s.json')$$,
  'P0001', 'invalid_feed_location', 'only http(s) URLs or file paths');
select throws_ok($$select mountain.set_feed_source('alpha', 'weather', 'https://example.com/w.json', 'epic')$$,
  'P0001', 'invalid_feed_format', 'only status feeds take a format');
select lives_ok($$select mountain.set_feed_source('alpha', 'status', 'https://example.com/alpha/terrain', 'epic')$$,
  'a status feed is configured');
select lives_ok($$select mountain.set_feed_source('beta', 'status', '/srv/feeds/beta.json')$$,
  'a file path is a source too');
select mountain.set_feed_source('alpha', 'weather', 'https://api.open-meteo.com/v1/forecast?latitude=46&timeformat=unixtime') as weather \gset

select is((select array_agg(resort_id) from mountain.due_feed_refreshes('status')), null::text[],
  'no status refresh for resorts without a published dataset');

-- Publish alpha: now it needs a status.
select mountain.apply_canonical_manifest('alpha', 0, 1, '[]', '[{"name": "Summit Express", "osm_way_ids": ["201"]}]') as v1 \gset
select mountain.record_resort_graph_blob('alpha', 1, '2025-01-01', 'v15', '\x61', repeat('a', 64),
  encode(sha256('\x61'), 'hex'), '3:2:00000000000000aa', 3, 2, 100) as built \gset
select mountain.publish_canonical_manifest('alpha', 1, 'v15', '2025-01-01', repeat('a', 64)) as published \gset
select is((select reason from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 'no status for the active dataset',
  'a published resort without status is due');
select mountain.record_resort_status('alpha', 1, 'v15', repeat('a', 64), '2026-02-01 09:00:00+00', 'epic', '{"l201": {"is_open": true}}') as status \gset
select mountain.record_feed_refresh('alpha', 'status', true);
select is((select count(*)::int from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 0, 'a fresh status is not due');

select tests.freeze_time('2026-02-01 09:57:59+00');
select is((select count(*)::int from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 0,
  'more than two minutes before expiry: not yet');
select tests.freeze_time('2026-02-01 09:58:00+00');
select is((select reason from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 'status expires within two minutes',
  'two minutes before expiry the refresh is due');

select mountain.record_feed_refresh('alpha', 'status', false, 'HTTP 503');
select tests.freeze_time('2026-02-01 10:02:59+00');
select is((select count(*)::int from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 0,
  'a failed attempt is not retried within five minutes, even past expiry');
select tests.freeze_time('2026-02-01 10:03:00+00');
select is((select reason from mountain.due_feed_refreshes('status') where resort_id = 'alpha'), 'status expired',
  'five minutes after the failure it is tried again');
select is((select consecutive_failures from mountain.resort_feed_refreshes where resort_id = 'alpha' and kind = 'status'), 1,
  'the failure streak is counted');

-- Weather merges hourly.
select is((select reason from mountain.due_feed_refreshes('weather')), 'no forecast merged yet', 'a forecast never merged is due');
select mountain.record_feed_refresh('alpha', 'weather', true);
select tests.freeze_time('2026-02-01 11:02:59+00');
select is((select count(*)::int from mountain.due_feed_refreshes('weather')), 0, 'within the hour the forecast is not due');
select tests.freeze_time('2026-02-01 11:03:00+00');
select is((select reason from mountain.due_feed_refreshes('weather')), 'forecast older than an hour', 'an hour later it merges again');

select tests.act_as(:'rider');
select throws_ok($$select count(*) from mountain.resort_feed_sources$$, '42501', null, 'clients cannot read the feed configuration');

select * from finish();
rollback;
