-- Push notifications: device tokens are each person's own and move rather than
-- duplicate; friend requests, new friends, meet requests and started meets
-- enqueue one outbox row per device of the person told, never toward a
-- blocked pair; nobody but the service role reaches the outbox; claims are
-- exclusive, retries back off and give up, a dead token goes.
begin;
select plan(55);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
select tests.create_user('cat@example.test', null, '{"username":"cat"}') as cat \gset
select tests.create_user('dan@example.test', null, '{"username":"dan"}') as dan \gset
select tests.freeze_time('2026-02-01 09:00:00+00');

-- ---------------------------------------------------------------- devices
select tests.act_as(:'ann');
select is(social.register_device_token(repeat('A1', 32), 'sandbox') ->> 'environment', 'sandbox',
  'ann registers a sandbox device');
select is((select token from social.device_tokens), repeat('a1', 32), 'the token is stored in lower case');
select throws_ok($$select social.register_device_token('not-a-token')$$, 'P0001', 'device_token_invalid',
  'a token that is not hex is refused');
select throws_ok($$select social.register_device_token(repeat('ab', 32), 'staging')$$, 'P0001', 'environment_invalid',
  'an unknown environment is refused');
select tests.act_as(:'bob');
select lives_ok($$select social.register_device_token(repeat('b2', 32))$$, 'bob registers a production device');
select is((select count(*)::int from social.device_tokens), 1, 'bob reads only his own device');
select throws_ok($$delete from social.device_tokens$$, '42501', null, 'no one deletes a device directly');
select is(social.unregister_device_token(repeat('a1', 32)), false, 'bob cannot unregister ann''s device');
select throws_ok($$insert into social.device_tokens (profile_id, token, environment, created_at, updated_at)
  values ('$$ || :'ann' || $$', repeat('cc', 32), 'production', now(), now())$$, '42501', null,
  'no one inserts a device directly');
select tests.clear_authentication();
select is((select count(*)::int from social.device_tokens where profile_id = :'ann'), 1,
  'bob cannot delete ann''s device');
select tests.act_as(:'ann');
select is(social.register_device_token(repeat('a5', 32), 'development') ->> 'environment', 'sandbox',
  'the entitlement''s "development" means sandbox');
select is(social.unregister_device_token(repeat('A5', 32)), true, 'ann unregisters her own second device');
select tests.act_as_anon();
select throws_ok($$select social.register_device_token(repeat('cd', 32))$$, '42501', null,
  'anon cannot register a device');

-- a phone that signs in as someone else takes its token along
select tests.act_as(:'cat');
select lives_ok($$select social.register_device_token(repeat('c3', 32)), social.register_device_token(repeat('99', 32))$$,
  'cat registers two devices');
select tests.act_as(:'dan');
select lives_ok($$select social.register_device_token(repeat('d4', 32)),
  social.register_device_token(repeat('99', 32), 'production', 'ipados')$$, 'dan registers two, one of them cat''s');
select tests.clear_authentication();
select results_eq($$select profile_id, platform from social.device_tokens where token = repeat('99', 32)$$,
  $$values ('$$ || :'dan' || $$'::uuid, 'ipados')$$, 'a token registered by someone else moves to them, once');

-- ---------------------------------------------------------------- outbox access
select tests.act_as(:'ann');
select throws_ok($$select * from push.outbox$$, '42501', null, 'a user cannot read the outbox');
select throws_ok($$delete from push.outbox$$, '42501', null, 'a user cannot write the outbox');
select throws_ok($$select * from push.claim_due('me')$$, '42501', null, 'a user cannot claim notifications');
select tests.act_as_anon();
select throws_ok($$select * from push.outbox$$, '42501', null, 'anon cannot read the outbox');
select tests.clear_authentication();

-- ---------------------------------------------------------------- enqueue
create function tests.queued(p_recipient uuid, p_kind text) returns bigint language sql as $$
  select count(*) from push.outbox where recipient_id = p_recipient and kind = p_kind
$$;
grant execute on function tests.queued(uuid, text) to public;

select tests.act_as(:'ann');
select is(social.send_friend_request(:'bob'), 'sent', 'ann asks bob');
select tests.clear_authentication();
select is(tests.queued(:'bob', 'friend_request'), 1::bigint, 'bob''s device gets the friend request');
select is((select payload #>> '{aps,alert,body}' from push.outbox where kind = 'friend_request'),
  '@ann wants to be friends', 'the alert names the sender');
select is((select payload ->> 'actor_id' from push.outbox where kind = 'friend_request'), :'ann',
  'the payload carries who sent it');

select id as request from social.friend_requests where from_id = :'ann' \gset
select tests.act_as(:'bob');
select is(social.respond_friend_request(:'request', true),
  'friends', 'bob accepts');
select tests.clear_authentication();
select is(tests.queued(:'ann', 'friend_added'), 1::bigint, 'ann''s device hears that bob accepted');
select is(tests.queued(:'bob', 'friend_added'), 0::bigint, 'bob, who accepted, is not told');

-- blocks: a request to someone who blocked you looks sent and never arrives
insert into social.blocks (blocker_id, blocked_id) values (:'cat', :'ann');
select tests.act_as(:'ann');
select is(social.send_friend_request(:'cat'), 'sent', 'ann''s request to cat, who blocked her, looks sent');
select tests.clear_authentication();
select is(tests.queued(:'cat', 'friend_request'), 0::bigint, 'and cat''s device gets nothing');
select tests.act_as(:'cat');
select is(social.send_friend_request(:'ann'), 'blocked', 'cat cannot ask ann while blocking her');
select tests.clear_authentication();
insert into social.friendships values (least(:'ann'::uuid, :'cat'::uuid), greatest(:'ann'::uuid, :'cat'::uuid));
select is(tests.queued(:'cat', 'friend_added') + tests.queued(:'ann', 'friend_added'), 1::bigint,
  'a friendship the server makes inside a blocked pair tells nobody (ann''s one is from bob)');
insert into social.friendships values (least(:'bob'::uuid, :'dan'::uuid), greatest(:'bob'::uuid, :'dan'::uuid));
select is(tests.queued(:'dan', 'friend_added'), 2::bigint,
  'a friendship the server makes tells both, on each of their devices (dan has two)');

-- meet requests: a published dataset with one rendezvous point
select tests.publish_alpha();
create function tests.plan() returns jsonb language sql as $$
  select jsonb_build_object('resort_id', 'alpha', 'dataset_version', 'm1-v15-' || repeat('a', 64),
    'rendezvous_point_id', 'rp501', 'meeting_node_id', 'n501',
    'sender_start', '{"node": "n1"}'::jsonb, 'receiver_start', '{"node": "n7"}'::jsonb,
    'sender_eta_seconds', 420, 'receiver_eta_seconds', 380, 'sender_eta_std_seconds', 60, 'receiver_eta_std_seconds', 40,
    'sender_path_edge_ids', '["t10"]'::jsonb, 'receiver_path_edge_ids', '["t12"]'::jsonb)
$$;
grant execute on function tests.plan() to public;

select tests.act_as(:'bob');
select meet.send_meet_request(:'ann', tests.plan()) -> 'request' ->> 'id' as meet \gset
select tests.clear_authentication();
select is(tests.queued(:'ann', 'meet_request'), 1::bigint, 'ann''s device gets bob''s meet request');
select is((select payload #>> '{aps,alert,body}' from push.outbox where kind = 'meet_request'),
  '@bob wants to meet at Base Lodge', 'the alert names the sender and the meeting point');
select tests.act_as(:'ann');
select is(meet.accept_meet_request(:'meet') ->> 'status', 'accepted', 'ann accepts the meet');
select tests.clear_authentication();
select is(tests.queued(:'bob', 'meet_started'), 1::bigint, 'bob''s device hears that the meet started');
select is((select subject_id::text from push.outbox where kind = 'meet_started'), :'meet',
  'the notification names the meet request');

-- ---------------------------------------------------------------- deliver
select tests.act_as_service();
create temporary table claimed as select * from push.claim_due('worker-1', 100);
select is((select count(*)::int from claimed), (select count(*)::int from push.outbox where status = 'pending'),
  'the worker claims every due notification');
select is((select count(*)::int from push.claim_due('worker-2', 100)), 0,
  'a second worker finds nothing: the claims are leased');
select ok((select bool_and(attempts = 1) from claimed), 'each claim counts an attempt');

select ok(push.record_delivered(c.id, c.claim_id), 'a delivery is recorded under its claim')
from claimed c where c.kind = 'friend_request';
select ok(not push.record_delivered(c.id, gen_random_uuid()), 'another claim id cannot report on it')
from claimed c where c.kind = 'meet_request';

select is(push.record_retry(c.id, c.claim_id, 500, 'InternalServerError'), 'pending', 'a 500 is retried')
from claimed c where c.kind = 'meet_request';
select ok((select next_attempt_at > summit.now() + interval '20 seconds' and next_attempt_at < summit.now() + interval '40 seconds'
           from push.outbox where kind = 'meet_request'), 'after about 30 s (jittered)');
update push.outbox set attempts = push.max_attempts() where kind = 'meet_request';
select is(push.record_retry(c.id, c.claim_id, 503, 'ServiceUnavailable'), 'failed',
  'after the last attempt it is given up') from claimed c where c.kind = 'meet_request';

select ok(push.record_dead_token(c.id, c.claim_id), 'a 410 is recorded')
from claimed c where c.kind = 'meet_started';
select is((select count(*)::int from social.device_tokens where token = repeat('b2', 32)), 0,
  'and bob''s dead device is gone, with what was queued for it');

-- a block after enqueueing drops what is still waiting
select tests.freeze_time('2026-02-01 10:00:00+00');
insert into social.blocks (blocker_id, blocked_id) values (:'dan', :'bob');
select is((select count(*)::int from push.claim_due('worker-1', 100) where recipient_id = :'dan'), 0,
  'a notification toward someone who has since blocked the actor is not delivered');
select is((select count(*)::int from push.outbox where recipient_id = :'dan' and status = 'dropped'), 2,
  'it is dropped, on both devices');

-- a server-given wait longer than the backoff is kept
select tests.freeze_time('2026-02-01 10:10:00+00');
select tests.act_as_service();
create temporary table reclaimed as select * from push.claim_due('worker-1', 100);
select is(push.record_retry(r.id, r.claim_id, 429, 'TooManyRequests', 3600), 'pending', 'a 429 is retried')
from reclaimed r where r.recipient_id = :'ann' limit 1;
select ok((select next_attempt_at >= summit.now() + interval '1 hour' from push.outbox
           where recipient_id = :'ann' and last_http_status = 429), 'no sooner than APNs''s retry-after');

-- finished rows are forgotten after a week
select tests.freeze_time('2026-02-09 10:00:00+00');
select is(push.purge_finished(), (select count(*)::int from push.outbox where status <> 'pending'),
  'purge_finished removes what finished over a week ago');
select is((select count(*)::int from push.outbox where status <> 'pending'), 0, 'and only that');
select ok((select count(*) > 0 from push.outbox where status = 'pending'), 'pending rows stay');
select tests.act_as(:'ann');
select throws_ok($$select push.purge_finished()$$, '42501', null, 'a user cannot purge the outbox');
select tests.clear_authentication();

select * from finish();
rollback;
