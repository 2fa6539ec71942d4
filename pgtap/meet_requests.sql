-- Meet requests: only unblocked friends send, only the two parties read,
-- the state machine refuses every illegal move, the sweep expires stale
-- pending requests, end intents (tombstones) win recovery until the server
-- accepts the end, and recovery restores only the newest accepted meet of
-- the last four hours whose full dataset identity is present.
begin;
select plan(44);

-- A published dataset of resort alpha with one rendezvous point (rp501 at n501).
select tests.publish_alpha();

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('bob@example.test', null, '{"username":"bob"}') as bob \gset
select tests.create_user('cat@example.test', null, '{"username":"cat"}') as cat \gset
select tests.create_user('dan@example.test', null, '{"username":"dan"}') as dan \gset
insert into social.friendships values (least(:'ann'::uuid, :'bob'::uuid), greatest(:'ann'::uuid, :'bob'::uuid));
insert into social.friendships values (least(:'ann'::uuid, :'dan'::uuid), greatest(:'ann'::uuid, :'dan'::uuid));
insert into social.blocks (blocker_id, blocked_id) values (:'dan', :'ann');

create function tests.plan(p_dataset text default 'm1-v15-' || repeat('a', 64)) returns jsonb language sql as $$
  select jsonb_build_object('resort_id', 'alpha', 'dataset_version', p_dataset,
    'rendezvous_point_id', 'rp501', 'meeting_node_id', 'n501',
    'sender_start', '{"edge": "t10", "fraction": 0.25, "accuracy_m": 8}'::jsonb, 'receiver_start', '{"node": "n7"}'::jsonb,
    'sender_eta_seconds', 420.5, 'receiver_eta_seconds', 380, 'sender_eta_std_seconds', 61.2, 'receiver_eta_std_seconds', 40,
    'sender_path_edge_ids', '["t10", "l201"]'::jsonb, 'receiver_path_edge_ids', '["t12"]'::jsonb)
$$;
grant execute on function tests.plan(text) to public;

select tests.freeze_time('2026-02-01 09:00:00+00');

-- ---------------------------------------------------------------- sending
select tests.act_as(:'cat');
select throws_ok($$select meet.send_meet_request('$$ || :'ann' || $$', tests.plan())$$, 'P0001', 'not_friends',
  'a stranger cannot send a meet request');
select tests.act_as(:'ann');
select throws_ok($$select meet.send_meet_request('$$ || :'dan' || $$', tests.plan())$$, 'P0001', 'not_friends',
  'a friend who blocked the sender cannot be sent a request');
select tests.act_as(:'dan');
select throws_ok($$select meet.send_meet_request('$$ || :'ann' || $$', tests.plan())$$, 'P0001', 'not_friends',
  'nor can the blocker send one');
select throws_ok($$insert into meet.meet_requests (sender_id, receiver_id, resort_id, rendezvous_point_id, meeting_node_id,
    meeting_node_display_name, sender_start, receiver_start, sender_eta_seconds, receiver_eta_seconds, sender_eta_std_seconds,
    receiver_eta_std_seconds, sender_path_edge_ids, receiver_path_edge_ids, created_at, expires_at, updated_at, dataset_version)
  values ('$$ || :'dan' || $$', '$$ || :'ann' || $$', 'alpha', 'rp501', 'n501', 'x', '{"node":"n1"}', '{"node":"n2"}', 1, 1, 1, 1,
    '{}', '{}', now(), now() + interval '1 h', now(), 'm1-v15-$$ || repeat('a', 64) || $$')$$,
  'P0001', 'not_friends', 'a direct insert is held to the same rule');

select tests.act_as(:'ann');
select throws_ok($$select meet.send_meet_request('$$ || :'bob' || $$', tests.plan('m1-v15-' || repeat('b', 64)))$$,
  'P0001', 'dataset_not_published', 'a plan on an identity that was never published is refused');
select throws_ok($$select meet.send_meet_request('$$ || :'bob' || $$', tests.plan() - 'dataset_version')$$,
  'P0001', 'dataset_version_required', 'a plan without its full dataset identity is refused');
select throws_ok($$select meet.send_meet_request('$$ || :'bob' || $$', tests.plan() || '{"rendezvous_point_id": "rp502", "meeting_node_id": "n502"}')$$,
  'P0001', 'rendezvous_point_unknown', 'a meet ends only at a catalog rendezvous point');
select throws_ok($$select meet.send_meet_request('$$ || :'bob' || $$', tests.plan() || '{"sender_start": {"edge": "t10", "fraction": 1.5}}')$$,
  'P0001', 'invalid_meet_plan', 'an exact start outside its edge is refused');
select throws_ok($$select meet.send_meet_request('$$ || :'bob' || $$', tests.plan() - 'receiver_eta_std_seconds')$$,
  'P0001', 'invalid_meet_plan', 'the ETA standard deviation is required');
select is((select count(*)::int from meet.meet_requests), 0, 'refused plans wrote nothing');

select meet.send_meet_request(:'bob', tests.plan()) -> 'request' ->> 'id' as r1 \gset
select results_eq($$select status, expires_at, manifest_version, graph_snapshot_date, meeting_node_display_name, sender_position_node_id, receiver_position_node_id
                   from meet.meet_requests where id = '$$ || :'r1' || $$'$$,
  $$values ('pending'::text, '2026-02-01 09:30:00+00'::timestamptz, 1, '2025-01-01'::date, 'Base Lodge'::text, null::text, 'n7'::text)$$,
  'the server sets status, the 30-minute expiry, the identity parts and the display name');
select is((select sender_eta_std_seconds from meet.meet_requests where id = :'r1'), 61.2::double precision, 'the ETA std is kept');

-- ---------------------------------------------------------------- reading
select tests.act_as(:'bob');
select is((select count(*)::int from meet.meet_requests), 1, 'the receiver reads the request');
select tests.act_as(:'cat');
select is((select count(*)::int from meet.meet_requests), 0, 'nobody else does');
select throws_ok($$select meet.accept_meet_request('$$ || :'r1' || $$')$$, 'P0001', 'meet_request_not_found',
  'nor can they act on it');
select tests.act_as_anon();
select throws_ok($$select count(*) from meet.meet_requests$$, '42501', null, 'anonymous callers cannot read requests');

-- ---------------------------------------------------------------- transitions
select tests.act_as(:'ann');
select throws_ok($$update meet.meet_requests set status = 'accepted' where id = '$$ || :'r1' || $$'$$, '23514', 'illegal_meet_transition',
  'the sender cannot accept their own request');
select throws_ok($$update meet.meet_requests set resort_id = 'beta' where id = '$$ || :'r1' || $$'$$, '23514', 'meet_request_immutable',
  'what a meet is about never changes');
select throws_ok($$update meet.meet_requests set receiver_eta_seconds = 1 where id = '$$ || :'r1' || $$'$$, '42501', 'not_your_route',
  'a party cannot rewrite the other''s route');
select lives_ok($$select meet.update_my_route('$$ || :'r1' || $$', '{"node": "n9"}', '{t11}', 300, 30)$$,
  'a party may update their own route and ETA');
select is((select sender_path_edge_ids from meet.meet_requests where id = :'r1'), '{t11}'::text[], 'and it is stored');

select tests.act_as(:'bob');
select is(meet.accept_meet_request(:'r1') ->> 'status', 'accepted', 'the receiver accepts');
select isnt((select accepted_at from meet.meet_requests where id = :'r1'), null, 'accepted_at is set by the server');
select throws_ok($$update meet.meet_requests set status = 'pending' where id = '$$ || :'r1' || $$'$$, '23514', 'illegal_meet_transition',
  'an accepted meet never goes back to pending');
select throws_ok($$select meet.decline_meet_request('$$ || :'r1' || $$')$$, '23514', 'illegal_meet_transition',
  'an accepted meet cannot be declined');

-- A second request, declined: declined is terminal.
select tests.act_as(:'ann');
select meet.send_meet_request(:'bob', tests.plan()) -> 'request' ->> 'id' as r2 \gset
select tests.act_as(:'bob');
select is(meet.decline_meet_request(:'r2') ->> 'status', 'declined', 'the receiver declines');
select throws_ok($$select meet.accept_meet_request('$$ || :'r2' || $$')$$, '23514', 'illegal_meet_transition',
  'a declined request cannot be accepted');
select throws_ok($$update meet.meet_requests set status = 'expired' where id = '$$ || :'r2' || $$'$$, '23514', 'illegal_meet_transition',
  'nor expired');

-- Sending when the friend already asked accepts theirs.
select meet.send_meet_request(:'ann', tests.plan()) as crossing \gset
select tests.act_as(:'ann');
select is((meet.send_meet_request(:'bob', tests.plan()) ->> 'auto_accepted')::boolean, true,
  'sending to a friend whose request is pending accepts theirs');

-- ---------------------------------------------------------------- expiry sweep
select meet.send_meet_request(:'bob', tests.plan()) -> 'request' ->> 'id' as r4 \gset
select meet.send_meet_request(:'bob', tests.plan()) -> 'request' ->> 'id' as r5 \gset
select is((select status from meet.meet_requests where id = :'r4'), 'expired', 'a newer request to the same friend expires the older pending one');
select tests.freeze_time('2026-02-01 09:31:00+00');
select tests.act_as(:'bob');
select throws_ok($$select meet.accept_meet_request('$$ || :'r5' || $$')$$, 'P0001', 'meet_request_expired',
  'a request past its expiry cannot be accepted, swept or not');
select throws_ok($$select meet.expire_stale_meet_requests()$$, '42501', null, 'clients cannot run the sweep');
select tests.act_as_service();
select is(meet.expire_stale_meet_requests(), 1, 'the sweep expires the stale pending request');
select is((select status from meet.meet_requests where id = :'r5'), 'expired', 'which is now expired');
select is((select count(*)::int from meet.meet_requests where status = 'accepted'), 2, 'accepted meets are not swept');

-- ---------------------------------------------------------------- tombstones and recovery
select tests.act_as(:'ann');
select is((select id::text from meet.recover_meet_request()), (select id::text from meet.meet_requests where status = 'accepted' order by created_at desc, id limit 1),
  'recovery restores the newest accepted meet');
select meet.save_end_intent(:'r1') as saved \gset
select meet.save_end_intent(:'r1') as saved \gset
select is((select count(*)::int from meet.pending_end_intents()), 1, 'an end intent is saved once, before anything changes');
select is((select status from meet.meet_requests where id = :'r1'), 'accepted', 'saving the intent changes no state');
select tests.act_as(:'bob');
select is((select count(*)::int from meet.pending_end_intents()), 0, 'end intents are per user');
select tests.act_as(:'ann');
select ok(:'r1' not in (select id::text from meet.recover_meet_request()), 'a meet its user asked to end is not recovered');
select is(meet.end_meet_request(:'r1') ->> 'status', 'expired', 'ending moves accepted to expired');
select is((select count(*)::int from meet.pending_end_intents()), 0, 'and removes the intent only now the end went through');
select is(meet.end_meet_request(:'r1') ->> 'ended_by', :'ann', 'ending again is a harmless no-op');

-- Recovery window: four hours from creation.
select tests.freeze_time('2026-02-01 13:05:00+00');
select is((select count(*)::int from meet.recover_meet_request()), 0, 'nothing older than four hours is recovered');

select * from finish();
rollback;
