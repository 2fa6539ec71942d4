-- The PowderMeet face (sql/faces/powdermeet.sql): profiles as the app reads and
-- writes them, and what each person may see of another (oneself all; a friend
-- all but body metrics and recording; anyone else name, skill and comfort;
-- nothing across a block, nothing to the anon key); blocks through the core's
-- RPCs; the public catalog, pins and active manifests.
begin;
select plan(71);

select tests.act_as_service();
select (auth.gateway_sign_up('ria@example.test', 'correct horse', '{"display_name": "Ria"}') -> 'user' ->> 'id') as ria \gset
select (auth.gateway_sign_up('bo@example.test', 'correct horse', '{"display_name": "Bo"}') -> 'user' ->> 'id') as bo \gset
select (auth.gateway_sign_up('cy@example.test', 'correct horse', '{"display_name": "Cy"}') -> 'user' ->> 'id') as cy \gset
select tests.clear_authentication();

-- A new account's row before any profile is saved.
select tests.act_as(:'ria');
select is((select display_name || '/' || skill_level || '/' || onboarding_completed from powdermeet.profiles where id = :'ria'),
  'Ria/intermediate/false', 'a new account sees its own row, named at sign-up, with the app''s defaults');
select is((select count(*)::int from powdermeet.profiles), 1, 'and no one else before anyone has a profile');
select throws_ok(format('insert into powdermeet.profiles (id, display_name, skill_level, condition_moguls, condition_ungroomed, condition_icy, condition_gladed, onboarding_completed) values (%L, %L, %L, 0.5, 0.5, 0.5, 0.5, false)',
  :'bo', 'Not Bo', 'expert'), 'P0001', 'not_allowed', 'a profile cannot be saved for someone else');
insert into powdermeet.profiles (id, display_name, skill_level, speed_blue, condition_moguls, condition_ungroomed, condition_icy,
                                 condition_gladed, live_recording_enabled, onboarding_completed, height_cm, avatar_url)
values (:'ria', 'Ria Rider', 'advanced', 9.5, 0.7, 0.4, 0.3, 0.6, true, false, 172, 'https://cdn.example/ria.jpg');
select is((select speed_blue from powdermeet.profiles where id = :'ria'), 9.5::double precision, 'the app''s insert saves the rider''s fields');
select is((select username from social.profiles where id = :'ria'), 'u' || substr(replace(:'ria', '-', ''), 1, 18),
  'and makes the core profile, with a username derived from the id');
update powdermeet.profiles set onboarding_completed = true, weight_kg = 64 where id = :'ria';
select is((select onboarding_completed::text || '/' || weight_kg || '/' || display_name from powdermeet.profiles where id = :'ria'),
  'true/64/Ria Rider', 'a partial update keeps the rest');
select throws_ok(format('update powdermeet.profiles set speed_black = 300 where id = %L', :'ria'), 'P0001', 'profile_value_invalid',
  'an impossible speed is refused, saying the ranges');
select throws_ok(format('update powdermeet.profiles set display_name = %L where id = %L', '', :'ria'), 'P0001', 'display_name_invalid',
  'an empty display name is refused');
select tests.clear_authentication();

-- What others see.
select tests.act_as(:'bo');
insert into powdermeet.profiles (id, display_name, skill_level, condition_moguls, condition_ungroomed, condition_icy,
                                 condition_gladed, onboarding_completed, height_cm)
values (:'bo', 'Bo', 'beginner', 0.2, 0.2, 0.2, 0.2, true, 190);
select is((select display_name || '/' || skill_level || '/' || condition_moguls from powdermeet.profiles where id = :'ria'),
  'Ria Rider/advanced/0.7', 'a stranger finds a person by display name, with skill and comfort');
select ok((select speed_blue is null and avatar_url is null and height_cm is null and current_resort_id is null and created_at is null
           from powdermeet.profiles where id = :'ria'), 'but not speeds, picture, body metrics, resort or dates');
select is((select count(*)::int from powdermeet.profiles where display_name ilike '%rider%' and id <> :'bo'), 1,
  'the app''s friend search (ilike on display_name) finds them');
update powdermeet.profiles set display_name = 'Hacked' where id = :'ria';
select is((select display_name from powdermeet.profiles where id = :'ria'), 'Ria Rider', 'another person''s row cannot be changed');
select is(powdermeet.is_display_name_taken('ria rider'), true, 'a display name in use is taken, whatever its case');
select is(powdermeet.is_display_name_taken('Bo'), false, 'one''s own name is not taken from oneself');
select lives_ok(format('select social.send_friend_request(%L)', :'ria'), 'Bo asks Ria to be friends');
select tests.clear_authentication();
select id as request from social.friend_requests where from_id = :'bo' and to_id = :'ria' \gset
select tests.act_as(:'ria');
select lives_ok(format('select social.respond_friend_request(%L, true)', :'request'), 'Ria accepts');
select tests.clear_authentication();
select tests.act_as(:'bo');
select ok((select speed_blue = 9.5 and avatar_url is not null and created_at is not null from powdermeet.profiles where id = :'ria'),
  'a friend sees speeds, picture and dates');
select ok((select height_cm is null and weight_kg is null and live_recording_enabled is null from powdermeet.profiles where id = :'ria'),
  'but never body metrics or what the app records');
select tests.clear_authentication();

-- Blocks.
select tests.act_as(:'cy');
select is((select count(*)::int from powdermeet.profiles where id in (:'ria', :'bo')), 2, 'Cy, a stranger, sees both');
insert into powdermeet.user_blocks (blocker_id, blockee_id) values (:'cy', :'bo');
select is((select array_agg(blockee_id)::text from powdermeet.user_blocks where blocker_id = :'cy'), '{' || :'bo' || '}',
  'a block goes in through the core (B2) and is listed (B1)');
select is((select count(*)::int from powdermeet.profiles where id = :'bo'), 0, 'a blocked person is not seen');
select throws_ok(format('insert into powdermeet.user_blocks (blocker_id, blockee_id) values (%L, %L)', :'ria', :'bo'), 'P0001',
  'not_allowed', 'no one blocks in another''s name');
select tests.clear_authentication();
select tests.act_as(:'bo');
select is((select count(*)::int from powdermeet.profiles where id = :'cy'), 0, 'nor does the blocked see the blocker');
delete from powdermeet.user_blocks where blocker_id = :'cy';
select tests.clear_authentication();
select is((select count(*)::int from social.blocks where blocker_id = :'cy'), 1, 'no one lifts another''s block');
select tests.act_as(:'cy');
delete from powdermeet.user_blocks where blocker_id = :'cy' and blockee_id = :'bo';
select is((select count(*)::int from powdermeet.user_blocks), 0, 'the blocker lifts it (B3)');
select tests.clear_authentication();

-- Friendships as the app has them.
select tests.act_as(:'cy');
select is(powdermeet.send_friend_request(:'ria'), 'sent', 'R3 asks through the core');
select is((select status || '/' || requester_id || '>' || addressee_id from powdermeet.friendships where requester_id = :'cy'),
  'pending/' || :'cy' || '>' || :'ria', 'the sender sees the pending row (F3)');
select throws_ok(format('update powdermeet.friendships set status = %L where requester_id = %L', 'accepted', :'cy'),
  'P0001', 'not_allowed', 'the sender of a request cannot accept it');
select tests.clear_authentication();
select tests.act_as(:'bo');
select is((select count(*)::int from powdermeet.friendships where requester_id = :'cy' or addressee_id = :'cy'), 0,
  'a third person sees nobody else''s requests');
update powdermeet.friendships set status = 'accepted' where requester_id = :'cy';
select is((select count(*)::int from powdermeet.friendships where status = 'accepted'), 1, 'nor can accept them (only Bo''s own friendship shows)');
select tests.clear_authentication();
select tests.act_as(:'ria');
select is((select count(*)::int from powdermeet.friendships where addressee_id = :'ria' and status = 'pending'), 1,
  'the person asked sees it (F2)');
update powdermeet.friendships set status = 'accepted' where requester_id = :'cy' and addressee_id = :'ria';
select is((select count(*)::int from powdermeet.friendships where status = 'accepted'), 2, 'accepting makes a friendship (F4)');
select is((select jsonb_array_length(powdermeet.get_social_snapshot('whistler') -> 'friends')), 2, 'the snapshot lists both friends (R2)');
delete from powdermeet.friendships where status = 'accepted' and (requester_id = :'cy' or addressee_id = :'cy');
select is((select count(*)::int from social.friendships where user_a in (:'ria', :'cy') and user_b in (:'ria', :'cy')), 0,
  'deleting the accepted row unfriends (F7)');
select tests.clear_authentication();

-- Imported runs.
select tests.act_as(:'ria');
insert into powdermeet.imported_runs (profile_id, resort_id, difficulty, speed_ms, duration_s, vertical_m, distance_m,
                                      max_grade_deg, run_at, dedup_hash, source, source_file_hash, conditions_fp)
values (:'ria', 'whistler', 'blue', 9.1, 180, 410, 1600, 24, '2026-01-10T10:00:00Z', 'd1', 'gpx', 'f1', 'default');
select is((select ended_at from activity.imported_runs where profile_id = :'ria'), '2026-01-10T10:03:00Z'::timestamptz,
  'an app''s run is saved through the core, ending duration_s after it starts (I1)');
select is((select runs_count from powdermeet.profile_stats where profile_id = :'ria'), 1, 'and the stats count it');
insert into powdermeet.imported_runs (profile_id, resort_id, speed_ms, duration_s, vertical_m, distance_m, run_at, dedup_hash,
                                      source, source_file_hash)
values (:'ria', 'whistler', 9.1, 180, 410, 1600, '2026-01-10T10:00:00Z', 'd1', 'gpx', 'f1');
select is((select count(*)::int from powdermeet.imported_runs), 1, 'the same run again is skipped as a duplicate');
select throws_ok(format('insert into powdermeet.imported_runs (profile_id, resort_id, duration_s, vertical_m, distance_m, run_at, dedup_hash, source, source_file_hash) values (%L, %L, 1, 1, 1, now(), %L, %L, %L)',
  :'bo', 'whistler', 'x', 'gpx', 'f'), 'P0001', 'not_allowed', 'no one imports runs for another');
update powdermeet.imported_runs set trail_name = 'Upper Pony', vertical_m = 9999 where dedup_hash = 'd1';
select is((select trail_name || '/' || vertical_m from powdermeet.imported_runs), 'Upper Pony/410',
  'a rename changes the trail''s name and nothing else (I7)');
select tests.clear_authentication();
select tests.act_as(:'bo');
update powdermeet.imported_runs set trail_name = 'Hacked';
delete from powdermeet.imported_runs;
select tests.clear_authentication();
select is((select trail_name from activity.imported_runs where profile_id = :'ria'), 'Upper Pony', 'another person renames nothing');
select is((select count(*)::int from activity.imported_runs where profile_id = :'ria'), 1, 'and deletes nothing');
select tests.act_as(:'ria');
delete from powdermeet.imported_runs where profile_id = :'ria';
select is((select count(*)::int from powdermeet.imported_runs), 0, 'the owner deletes them (I8)');
select tests.clear_authentication();

-- Meet requests: the app's insert is kept as legacy; the core's state machine decides the rest.
select tests.act_as(:'ria');
insert into powdermeet.meet_requests (sender_id, receiver_id, resort_id, meeting_node_id, meeting_node_elevation,
                                      sender_eta_seconds, receiver_eta_seconds, status, expires_at)
values (:'ria', :'bo', 'whistler', 'n-roundhouse', 1850, 420, 380, 'accepted', now() + interval '5 days');
select id as meet from powdermeet.meet_requests where sender_id = :'ria' \gset
select is((select status || '/' || (dataset_version is null) || '/' || (expires_at - created_at) from powdermeet.meet_requests where id = :'meet'),
  'pending/true/00:30:00', 'the app''s meet is stored as a pending legacy request on the server''s 30 minutes (M1)');
select throws_ok(format('insert into powdermeet.meet_requests (sender_id, receiver_id, resort_id, meeting_node_id, meeting_node_elevation, status) values (%L, %L, %L, %L, 1, %L)',
  :'ria', :'cy', 'whistler', 'n1', 'pending'), 'P0001', 'not_friends', 'only to a friend');
select throws_ok(format('insert into powdermeet.meet_requests (sender_id, receiver_id, resort_id, meeting_node_id, meeting_node_elevation, status) values (%L, %L, %L, %L, 1, %L)',
  :'bo', :'ria', 'whistler', 'n1', 'pending'), 'P0001', 'not_sender', 'and only as oneself');
select throws_ok(format('update powdermeet.meet_requests set status = %L where id = %L', 'accepted', :'meet'), '23514', 'illegal_meet_transition',
  'the sender cannot accept their own request');
update powdermeet.meet_requests set sender_eta_seconds = 300 where id = :'meet';
select is((select sender_eta_seconds from powdermeet.meet_requests where id = :'meet'), 300::double precision, 'the sender updates their ETA (M5)');
select tests.clear_authentication();
select tests.act_as(:'cy');
update powdermeet.meet_requests set status = 'accepted' where id = :'meet';
select is((select count(*)::int from powdermeet.meet_requests), 0, 'a stranger sees no one''s meets');
select tests.clear_authentication();
select tests.act_as(:'bo');
select throws_ok(format('update powdermeet.meet_requests set sender_eta_seconds = 1 where id = %L', :'meet'), '42501', 'not_your_route',
  'the receiver cannot change the sender''s ETA');
update powdermeet.meet_requests set status = 'accepted' where id = :'meet';
select is((select status from powdermeet.meet_requests where id = :'meet'), 'accepted', 'the receiver accepts the legacy request (M2)');
update powdermeet.meet_requests set status = 'expired' where id = :'meet';
select is((select status from powdermeet.meet_requests where id = :'meet'), 'expired', 'either party ends it (M4)');
select tests.clear_authentication();

-- Live presence and devices.
select tests.act_as(:'ria');
insert into powdermeet.live_presence (user_id, resort_id, lat, lon, captured_at, accuracy_m)
values (:'ria', 'whistler', 50.0598, -122.9573, summit.now(), 8);
select is((select lat from meet.live_presence where user_id = :'ria'), 50.0598::double precision,
  'a position goes in through the core''s broadcast (L2)');
select throws_ok(format('insert into powdermeet.live_presence (user_id, resort_id, lat, lon, captured_at) values (%L, %L, 1, 1, now())',
  :'bo', 'whistler'), 'P0001', 'not_allowed', 'no one publishes another''s position');
insert into powdermeet.device_tokens (profile_id, token, platform, environment)
values (:'ria', repeat('ab', 32), 'ios', 'sandbox');
select is((select environment from powdermeet.device_tokens where profile_id = :'ria'), 'sandbox', 'a device registers through the core (D1)');
select tests.clear_authentication();
select tests.act_as(:'bo');
select is((select count(*)::int from powdermeet.live_presence where user_id = :'ria'), 1, 'a friend sees the position (L1)');
select is((select count(*)::int from powdermeet.device_tokens), 0, 'but no one else''s devices');
delete from powdermeet.live_presence where user_id = :'ria';
select tests.clear_authentication();
select is((select count(*)::int from meet.live_presence where user_id = :'ria'), 1, 'nor can clear another''s position');
select tests.act_as(:'ria');
delete from powdermeet.live_presence where user_id = :'ria';
select is((select count(*)::int from powdermeet.live_presence where user_id = :'ria'), 0, 'the owner clears it (L3)');
select tests.clear_authentication();

-- Stats, learned speeds, account deletion.
select tests.act_as(:'ria');
select lives_ok(format('select powdermeet.recompute_profile_stats(%L)', :'ria'), 'one recomputes one''s own stats (R6)');
select is((select top_speed_ms from powdermeet.profile_stats where profile_id = :'ria'), 0::double precision,
  'a rollup without runs reads zeros, not nulls (S1)');
select throws_ok(format('select powdermeet.recompute_profile_edge_speeds(%L)', :'bo'), 'P0001', 'not_allowed',
  'but not another''s (R7)');
select tests.clear_authentication();
select tests.act_as(:'cy');
select lives_ok('select powdermeet.delete_user_account()', 'an account deletes itself under the app''s name (R8)');
select tests.clear_authentication();

-- Avatars: public to look at, one's own to put.
select tests.act_as(:'bo');
select lives_ok(format('insert into storage.objects (bucket_id, name, owner, content) values (%L, %L, %L, %L)', 'powdermeet-avatars',
  :'bo' || '/avatar.jpg', :'bo', '\xffd8ffd9'), 'one puts one''s own avatar (ST1)');
select throws_ok(format('insert into storage.objects (bucket_id, name, owner, content) values (%L, %L, %L, %L)', 'powdermeet-avatars',
  :'ria' || '/avatar.jpg', :'bo', '\xffd8ffd9'), '42501', null, 'not another''s');
select throws_ok(format('insert into storage.objects (bucket_id, name, owner, content) values (%L, %L, %L, %L)', 'powdermeet-avatars',
  :'bo' || '/other.jpg', :'bo', '\xffd8ffd9'), '42501', null, 'nor anything but avatar.jpg');
select tests.clear_authentication();
select tests.act_as(:'ria');
select is((select count(*)::int from storage.objects where bucket_id = 'powdermeet-avatars'), 1,
  'anyone may look at it (the public URL reads the public bucket, ST2)');
select is((select count(*)::int from storage.objects where bucket_id = 'avatars' and name like :'bo' || '/%'), 0,
  'and it is not in AirStrive''s avatars');
select tests.clear_authentication();

-- The anon key.
select tests.act_as_anon();
select throws_ok('select * from powdermeet.profiles', '42501', null, 'the anon key reads no profiles');
select lives_ok('select resort_id, snapshot_date from powdermeet.resort_snapshot_pins', 'but reads the snapshot pins (SP1)');
select lives_ok('select resort_id from powdermeet.current_resort_canonical_manifest', 'the active manifests (CM1)');
select lives_ok('select * from powdermeet.skis_catalog', 'and the ski catalog (K1)');
select tests.clear_authentication();

select * from finish();
rollback;
