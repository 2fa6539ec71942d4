-- Profiles, friends, requests, blocks, codes, discovery (T07, T15, T72-T76).
begin;
select plan(36);

select tests.create_user('alice@example.test', '+1 555 010 0001', '{"username":"alice"}') as alice \gset
select tests.create_user('bob@example.test', '+1 555 010 0002', '{"username":"bob"}') as bob \gset
select tests.create_user('carol@example.test', null, '{"username":"carol"}') as carol \gset
select tests.create_user('dave@example.test', null, '{}') as dave \gset

-- usernames
select tests.act_as(:'dave');
select throws_ok($$select social.claim_username('ab')$$, 'P0001', 'username_invalid', 'a 2-letter username is invalid');
select throws_ok($$select social.claim_username('admin')$$, 'P0001', 'username_reserved', 'reserved names are refused');
select throws_ok($$select social.claim_username('  @Alice ')$$, 'P0001', 'username_taken', 'a taken name (after trim, @ and case) is refused');
select is(social.claim_username('  @Dave_1 ') ->> 'username', 'dave_1', 'claim_username normalises and creates the profile');
select is(social.claim_username('davey') ->> 'username', 'davey', 'renaming is allowed');
select is(social.claim_username('dave_1') ->> 'username', 'dave_1', 'the old name is free at once');

-- T07 profiles: own row only; username and suspension not directly writable
select tests.act_as(:'alice');
select is((select count(*)::int from social.profiles), 1, 'T07 a user selects only their own profile row');
select is((select social.update_profile(p_bio => 'Hello there') ->> 'bio'), 'Hello there', 'update_profile sets the bio');
select throws_ok($$update social.profiles set username = 'mallory'$$, '42501', null, 'T07 direct update of username is denied');
select throws_ok($$update social.profiles set sharing_suspended_at = null$$, '42501', null, 'T07 direct update of sharing_suspended_at is denied');
update social.profiles set bio = 'changed' where id = :'bob';
select tests.clear_authentication();
select is((select bio from social.profiles where id = :'bob'), '', 'T07 updating someone else''s row changes nothing');
select tests.act_as(:'alice');
-- T15 social and moderation tables are not selectable
select throws_ok($$select * from social.friend_requests$$, '42501', null, 'T15 friend_requests is not selectable');
select throws_ok($$select * from social.reports$$, '42501', null, 'T15 reports is not selectable');
select throws_ok($$select * from social.moderation_actions$$, '42501', null, 'T15 moderation_actions is not selectable');
select throws_ok($$select * from grids.group_members$$, '42501', null, 'T15 group_members is not selectable');

-- T72 crossing requests become one friendship
select is(social.send_friend_request(:'bob'), 'sent', 'a request is sent');
select tests.act_as(:'carol');
select throws_ok(format('select social.respond_friend_request(%L, true)',
  (select id from social.get_social_snapshot() s, jsonb_to_recordset('[]') x(id uuid) limit 1)), 'P0001', 'not_found',
  'T72 respond_friend_request by a non-recipient fails');
select tests.act_as(:'bob');
select is(jsonb_array_length(social.get_social_snapshot() -> 'incoming'), 1, 'bob sees the incoming request');
select is(social.send_friend_request(:'alice'), 'friends', 'T72 crossing requests become one friendship');
select tests.act_as(:'alice');
select is((select count(*)::int from social.friendships), 1, 'T72 exactly one friendship row, readable by its members');
select ok((social.get_social_snapshot() ->> 'generation')::int > 1, 'get_social_snapshot carries a bumped generation');

-- T73 a request to someone who blocked you
select tests.act_as(:'carol');
select social.block_user(:'alice');
select tests.act_as(:'alice');
select is(social.send_friend_request(:'carol'), 'sent', 'T73 a request to someone who blocked you answers sent');
select is(social.my_friend_requests() -> 'outgoing' -> 0 ->> 'status', 'sent', 'T73 ... and stays sent for you');
select tests.act_as(:'carol');
select is(jsonb_array_length(social.my_friend_requests() -> 'incoming'), 0, 'T73 ... and never appears in their incoming list');

-- T74 search
select throws_ok($$select * from social.search_usernames('al')$$, 'P0001', 'query_too_short', 'T74 fewer than 3 letters → query_too_short');
select tests.act_as(:'bob');
select is((select array_agg(username) from social.search_usernames('ali')), array['alice'], 'T74 prefix match');
select tests.act_as(:'carol');
select is((select count(*)::int from social.search_usernames('alice')), 0, 'T74 the blocker does not find the blocked');
select tests.act_as(:'alice');
select is((select count(*)::int from social.search_usernames('carol')), 0, 'T74 the blocked does not find the blocker');

-- T75 codes
select tests.act_as(:'bob');
select social.create_friend_code('link') ->> 'code' as link \gset
select social.create_friend_code('qr') ->> 'code' as qr \gset
select tests.act_as_anon();
select is(social.peek_friend_code(:'link'), jsonb_build_object('status', 'valid', 'username', 'bob'), 'T75 peek_friend_code works for anon and returns only the username');
select tests.act_as(:'bob');
select is(social.redeem_friend_code(:'link') ->> 'status', 'own_code', 'T75 own code → own_code');
select tests.act_as(:'dave');
select is(social.redeem_friend_code(:'link') ->> 'status', 'friends', 'T75 a valid code makes friends at once');
select is(social.redeem_friend_code(:'link') ->> 'status', 'invalid', 'T75 a code works once');
select tests.act_as(:'carol');
select tests.freeze_time(now() + interval '25 hours');
select is(social.redeem_friend_code(:'qr') ->> 'status', 'invalid', 'T75 a QR code fails after 24 h');

-- T75 a link lasts 7 days
select tests.unfreeze_time();
select tests.act_as(:'bob');
select social.create_friend_code('link') ->> 'code' as week_link \gset
select tests.act_as(:'carol');
select tests.freeze_time(now() + interval '6 days 23 hours');
select is(social.peek_friend_code(:'week_link') ->> 'status', 'valid', 'T75 a link still works after 6 days 23 hours');
select tests.freeze_time(now() + interval '7 days 1 minute');
select is(social.redeem_friend_code(:'week_link') ->> 'status', 'invalid', 'T75 a link fails after 7 days');

-- T76 blocking ends friendship silently; unblocking restores nothing
select tests.unfreeze_time();
select tests.act_as(:'bob');
select social.block_user(:'alice');
select social.unblock_user(:'alice');
select is(jsonb_array_length(social.get_social_snapshot() -> 'friends'), 1, 'T76 blocking ended the friendship with alice; unblocking restores nothing (dave remains)');

select * from finish();
rollback;
