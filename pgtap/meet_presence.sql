-- Live presence: the geohash, who reads stored positions, the publish RPC's
-- checks and ordering, the packet, clearing and the sweep.
begin;
select plan(58);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
select tests.create_user('cat@example.test', null, '{"username":"cat"}') as cat \gset
select tests.create_user('dan@example.test', null, '{"username":"dan"}') as dan \gset
select tests.create_user('eve@example.test', null, '{}') as eve \gset
insert into social.friendships (user_a, user_b) values
  (least(:'ann'::uuid, :'bob'::uuid), greatest(:'ann'::uuid, :'bob'::uuid)),
  (least(:'ann'::uuid, :'dan'::uuid), greatest(:'ann'::uuid, :'dan'::uuid));
select tests.freeze_time('2026-02-01 10:00:00+00');

-- geohash (spec §7.1 vectors; corners; a value on a midpoint takes the upper half)
select is(private.geohash(57.64911, 10.40744), 'u4pruy', 'geohash of (57.64911, 10.40744) is u4pruy');
select is(private.geohash(39.6403, -106.3742), '9xh3e2', 'geohash of (39.6403, -106.3742) is 9xh3e2');
select is(private.geohash(-90, -180) || private.geohash(90, 180), '000000zzzzzz', 'the corners are 000000 and zzzzzz');
select is(private.geohash(0, 0), 's00000', 'the origin lies on both midpoints and takes the upper halves');
select is(private.geohash(39.6403, -106.3742, 9), '9xh3e2' || right(private.geohash(39.6403, -106.3742, 9), 3),
  'a longer hash extends the shorter one');
-- the publish path's geohash6 gives the bisection's answer everywhere, cell edges included
select is(private.geohash6(57.64911, 10.40744) || private.geohash6(39.6403, -106.3742), 'u4pruy9xh3e2',
  'geohash6 agrees with the spec vectors');
select is((select count(*)::int from (
    select random() * 180 - 90 as lat, random() * 360 - 180 as lon from generate_series(1, 5000)
    union all
    -- cell edges far from the equator and the prime meridian, exactly and one unit in the last place either side
    -- (2^-46 degrees of latitude within 64..90, 2^-45 of longitude within 128..180)
    select -90 + i * 0.0054931640625::float8 + s * 1.4210854715202004e-14, -180 + j * 0.010986328125::float8 + s * 2.842170943040401e-14
    from (select generate_series(0, 4500, 7) union all select generate_series(28268, 32768, 7)) a(i),
         (select generate_series(0, 4600, 331) union all select generate_series(28000, 32768, 331)) b(j),
         unnest(array[-1, 0, 1]) s
  ) p where lat between -90 and 90 and lon between -180 and 180
    and private.geohash6(lat, lon) <> private.geohash(lat, lon, 6)), 0,
  'geohash6 equals the bisection on 5000 random points and on cell boundaries');

-- publishing: the first sample is stored and reported with its channels
select tests.act_as(:'bob');
select is(meet.broadcast_position('vail', 39.6403, -106.3742, '2026-02-01 09:59:58+00', p_accuracy_m => 6) ->> 'status',
  'published', 'a first sample is published');
select is(meet.broadcast_position('vail', 39.6403, -106.3742, '2026-02-01 09:59:59+00') -> 'channels',
  '["pos:cell:9xh3e2", "pos:resort:vail"]'::jsonb, 'it notifies the cell channel and the resort channel');
select is(current_setting('synchronous_commit'), 'off', 'the publishing transaction does not wait for its WAL flush');
select tests.clear_authentication();
select is((select geohash6 || ' ' || resort_id || ' ' || received_at::text from meet.live_presence where user_id = :'bob'),
  '9xh3e2 vail 2026-02-01 10:00:00+00', 'the row has the server-computed cell and the server''s receive time');

-- ordering: the sender's capture time decides, never arrival
select tests.act_as(:'bob');
select is(meet.broadcast_position('vail', 40, -106, '2026-02-01 09:59:50+00') ->> 'reason', 'not_newer',
  'an older sample is ignored');
select is(meet.broadcast_position('vail', 40, -106, '2026-02-01 09:59:59+00') ->> 'status', 'ignored',
  'a sample with the same capture time is ignored');
select tests.clear_authentication();
select is((select lat::text || ',' || captured_at::text from meet.live_presence where user_id = :'bob'),
  '39.6403,2026-02-01 09:59:59+00', 'an ignored sample leaves the stored one untouched');
select tests.act_as(:'bob');
select is(meet.broadcast_position('whistler', 50.1163, -122.9574, '2026-02-01 10:00:00.250+00') ->> 'status', 'published',
  'a newer sample replaces the stored one, at another resort too');
select tests.clear_authentication();
select is((select resort_id || ' ' || geohash6 from meet.live_presence where user_id = :'bob'), 'whistler c2bt45',
  'the stored row moved to the new resort and cell');

-- clock skew: up to 10 s ahead of the server is a phone's clock; beyond, refused
select tests.act_as(:'dan');
select is(meet.broadcast_position('vail', 39.64, -106.37, '2026-02-01 10:00:10+00') ->> 'status', 'published',
  'a capture time 10 s ahead of the server is accepted');
select throws_ok($$select meet.broadcast_position('vail', 39.64, -106.37, '2026-02-01 10:00:10.5+00')$$,
  'P0001', 'captured_at_in_future', 'a capture time more than 10 s ahead is refused');
select throws_ok($$select meet.broadcast_position('vail', 39.64, -106.37, '2026-02-01 09:44:59+00')$$,
  'P0001', 'captured_at_too_old', 'a sample older than the 15-minute TTL is refused');
select throws_ok($$select meet.broadcast_position('vail', 39.64, -106.37, null)$$,
  'P0001', 'captured_at_missing', 'a sample without a capture time is refused');

-- bad input is refused with a reason, before anything is written
select throws_ok($$select meet.broadcast_position('vail', 90.5, 0, '2026-02-01 10:00:09+00')$$,
  'P0001', 'position_out_of_range', 'a latitude beyond 90 is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 'NaN', '2026-02-01 10:00:09+00')$$,
  'P0001', 'position_out_of_range', 'a longitude that is not a number is refused');
select throws_ok($$select meet.broadcast_position('', 0, 0, '2026-02-01 10:00:09+00')$$,
  'P0001', 'resort_id_invalid', 'an empty resort id is refused');
select throws_ok($$select meet.broadcast_position(repeat('r', 53), 0, 0, '2026-02-01 10:00:09+00')$$,
  'P0001', 'resort_id_invalid', 'a resort id too long for a channel name is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_accuracy_m => 0)$$,
  'P0001', 'accuracy_out_of_range', 'an accuracy of 0 m is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_altitude_m => 9001)$$,
  'P0001', 'altitude_out_of_range', 'an altitude above 9000 m is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_speed_mps => -1)$$,
  'P0001', 'speed_out_of_range', 'a negative speed is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_heading_deg => 360)$$,
  'P0001', 'heading_out_of_range', 'a heading of 360 is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_node_id => repeat('n', 65))$$,
  'P0001', 'node_id_invalid', 'a node id longer than 64 characters is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_edge_id => 'r 1')$$,
  'P0001', 'edge_id_invalid', 'an edge id with a space is refused');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:09+00', p_edge_fraction => 0.5)$$,
  'P0001', 'edge_fraction_invalid', 'an edge fraction without an edge is refused');
select tests.clear_authentication();
select is((select captured_at from meet.live_presence where user_id = :'dan'), '2026-02-01 10:00:10+00'::timestamptz,
  'no refused sample changed the stored one');

-- who may publish
select tests.act_as(:'eve');
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:00+00')$$,
  'P0001', 'no_profile', 'an account without a username cannot publish');
select tests.act_as_anon();
select throws_ok($$select meet.broadcast_position('vail', 0, 0, '2026-02-01 10:00:00+00')$$,
  '42501', null, 'anon cannot publish');
select throws_ok($$select * from meet.live_presence$$, '42501', null, 'anon cannot read positions');

-- the packet: short keys, sender-stamped capture time, absent fields left out
select tests.clear_authentication();
select is(private.position_packet(l)::jsonb,
  jsonb_build_object('u', :'bob'::uuid, 'lat', 50.1163, 'lon', -122.9574, 'at', 1769940000.25, 'r', 'whistler'),
  'the packet carries id, position, capture time (Unix s) and resort, and no name')
  from meet.live_presence l where user_id = :'bob';

-- the largest packet: every field at its longest
select tests.act_as(:'ann');
select meet.broadcast_position(repeat('R', 52), -89.12345678901234, -179.12345678901234, '2026-02-01 09:59:59.123456+00',
  p_accuracy_m => 1234.5678901234567, p_altitude_m => -123.45678901234567, p_speed_mps => 12.345678901234567,
  p_heading_deg => 123.45678901234567, p_node_id => repeat('N', 64), p_edge_id => repeat('E', 64),
  p_edge_fraction => 0.12345678901234567) as biggest \gset
select is(:'biggest'::jsonb ->> 'status', 'published', 'the largest packet is published');
select cmp_ok((:'biggest'::jsonb ->> 'packet_bytes')::int, '<', 600, 'the largest packet stays under 600 bytes, far below NOTIFY''s 8000');
select tests.clear_authentication();
select is((select private.position_packet(l)::jsonb ->> 'node' from meet.live_presence l where user_id = :'ann'),
  repeat('N', 64), 'its fields arrive whole');
select is((select array_agg(private.position_packet(l) order by user_id) from meet.live_presence l),
  (select array_agg(json_strip_nulls(json_build_object('u', l.user_id, 'lat', l.lat, 'lon', l.lon,
     'at', extract(epoch from l.captured_at), 'acc', l.accuracy_m, 'alt', l.altitude_m, 'spd', l.speed_mps,
     'hdg', l.heading_deg, 'node', l.node_id, 'edge', l.edge_id, 'frac', l.edge_fraction, 'r', l.resort_id))::text
     order by user_id) from meet.live_presence l),
  'the packet is the compact JSON text of its fields, nulls left out, sparse or full');

-- reading stored positions: own row, and unblocked friends, whatever the reader's own row says
select tests.act_as(:'ann');
select is((select array_agg(user_id order by user_id) from meet.live_presence),
  (select array_agg(u order by u) from unnest(array[:'ann'::uuid, :'bob'::uuid, :'dan'::uuid]) u),
  'a user reads their own row and their friends'' rows');
select tests.act_as(:'cat');
select is((select count(*)::int from meet.live_presence), 0, 'a stranger reads nothing');
select tests.act_as(:'bob');
select is((select count(*)::int from meet.live_presence where user_id = :'dan'), 0, 'friends of friends are not friends');
select tests.clear_authentication();
delete from meet.live_presence where user_id = :'ann';
select tests.act_as(:'ann');
select is((select count(*)::int from meet.live_presence where user_id in (:'bob', :'dan')), 2,
  'a friend''s row is readable while the reader has no row of their own (no clause reads it)');
select tests.clear_authentication();
-- a block without the friendship's deletion (say, mid-transaction elsewhere) hides the row all the same
insert into social.blocks (blocker_id, blocked_id) values (:'dan', :'ann');
select tests.act_as(:'ann');
select is((select count(*)::int from meet.live_presence where user_id = :'dan'), 0, 'a friend who blocked you is hidden');
select tests.act_as(:'dan');
select is((select count(*)::int from meet.live_presence where user_id <> :'dan'), 0, 'and you are hidden from them');
select tests.clear_authentication();

-- nobody writes rows directly
select tests.act_as(:'bob');
select throws_ok($$update meet.live_presence set lat = 0$$, '42501', null, 'direct updates are denied');
select throws_ok(format($$insert into meet.live_presence values (%L, 'vail', 0, 0, null, null, null, null, null, null, null,
  's00000', now(), now())$$, :'bob'), '42501', null, 'direct inserts are denied');
select throws_ok($$delete from meet.live_presence$$, '42501', null, 'direct deletes are denied');
select tests.act_as_service();
select throws_ok($$update meet.live_presence set lat = 0$$, '42501', null,
  'the service role does not write rows around broadcast_position either');
select throws_ok(format($$insert into meet.live_presence values (%L, 'vail', 91, 0, null, null, null, null, null, null, null,
  's00000', now(), now())$$, :'bob'), '42501', null, '... nor insert them');
select tests.act_as(:'bob');

-- clearing one's own position
select is(meet.clear_my_position(), true, 'clear_my_position removes the caller''s row');
select is(meet.clear_my_position(), false, 'and answers false when there is none');

-- the sweep: service role only; removes what the server has not heard about for 15 minutes
select throws_ok($$select meet.sweep_live_presence()$$, '42501', null, 'a user cannot run the sweep');
select tests.act_as_service();
select tests.freeze_time('2026-02-01 10:14:59+00');
select is(meet.sweep_live_presence(), 0, 'nothing is swept before the TTL');
select tests.freeze_time('2026-02-01 10:15:01+00');
select is(meet.sweep_live_presence(), 1, 'dan''s position, unheard for over 15 minutes, is swept');
select tests.clear_authentication();
select is((select count(*)::int from meet.live_presence), 0, 'nothing is left');

-- policies follow the RLS performance guidance
select is((select count(*)::int from pg_policies where schemaname = 'meet'
           and (coalesce(qual, '') || coalesce(with_check, '')) ~ 'auth\.uid\(\)'
           and (coalesce(qual, '') || coalesce(with_check, '')) !~ 'SELECT auth\.uid\(\)'), 0,
  'meet policies call auth.uid() as (select auth.uid())');

select * from finish();
rollback;
