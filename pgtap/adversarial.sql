-- A stranger, a blocked user, an anonymous caller and a suspended user try
-- every RPC and table on someone else's things: they get nothing (or the
-- documented error) and no row changes.
begin;
select plan(13);

select tests.create_user('vic@example.test', null, '{"username":"vic"}') as v \gset
select tests.create_user('vic2@example.test', null, '{"username":"vicpal"}') as v2 \gset
select tests.create_user('sly@example.test', null, '{"username":"sly"}') as s \gset
select tests.create_user('blk@example.test', null, '{"username":"blk"}') as b \gset
select tests.create_user('sus@example.test', null, '{"username":"sus"}') as u \gset
insert into social.friendships values (least(:'v'::uuid, :'v2'::uuid), greatest(:'v'::uuid, :'v2'::uuid));
insert into social.friendships values (least(:'v'::uuid, :'u'::uuid), greatest(:'v'::uuid, :'u'::uuid));
insert into social.blocks (blocker_id, blocked_id) values (:'v', :'b');
update social.profiles set sharing_suspended_at = now() where id = :'u';

select tests.act_as(:'v');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Vic grid',
  'color', 'ink', 'theme', 'calm', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Be calm ' || i) from generate_series(1, 49) i))) is not null as s1;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at) values
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'friends', now(), now()),
  ('b0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'private', now(), now());
insert into grids.moments (id, user_square_id, title, body, happened_on, audience, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Secret', 'words', '2026-01-01', 'friends', now(), now());
select grids.start_group('b0000000-0000-4000-8000-000000000002') is not null as g;
select tests.clear_authentication();
insert into grids.group_members values ('b0000000-0000-4000-8000-000000000002', :'v2');
select tests.act_as(:'v');
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000002', private.v5('square:b0000000-0000-4000-8000-000000000002:24'), 'Group', '2026-01-01', now(), now());
insert into grids.moment_entries (id, moment_id, body, audience, created_at, updated_at) values
  ('e0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000002', 'group words', 'group', now(), now());
select social.create_friend_code('link') ->> 'code' as code \gset
select tests.act_as(:'v2');
select social.send_friend_request(:'s') is not null as req;

select tests.clear_authentication();
create function tests.fingerprint() returns text language sql security definer as $$
  select md5(string_agg(x, '|' order by x)) from (
    select 'p' || to_jsonb(t)::text x from social.profiles t union all select 'f' || to_jsonb(t)::text from social.friendships t
    union all select 'r' || to_jsonb(t)::text from social.friend_requests t union all select 'b' || to_jsonb(t)::text from social.blocks t
    union all select 'c' || to_jsonb(t)::text from social.friend_codes t union all select 'g' || to_jsonb(t)::text from grids.grids t
    union all select 'q' || to_jsonb(t)::text from grids.grid_squares t union all select 'u' || to_jsonb(t)::text from grids.user_grids t
    union all select 's' || to_jsonb(t)::text from grids.user_squares t union all select 'm' || to_jsonb(t)::text from grids.moments t
    union all select 'e' || to_jsonb(t)::text from grids.moment_entries t union all select 'h' || to_jsonb(t)::text from grids.photos t
    union all select 'gm' || to_jsonb(t)::text from grids.group_members t union all select 'gi' || to_jsonb(t)::text from grids.group_invites t
    union all select 'o' || to_jsonb(t)::text from storage.objects t union all select 'rep' || to_jsonb(t)::text from social.reports t
    union all select 'ma' || to_jsonb(t)::text from social.moderation_actions t) s $$;
-- run one attempt; any error is fine, the fingerprint decides
create function tests.try(p_sql text) returns text language plpgsql as $$
begin execute p_sql; return 'ran'; exception when others then return sqlstate; end $$;
grant execute on function tests.try(text), tests.fingerprint() to anon, authenticated;
create temp table attempts (sql text);
grant select on attempts to public;
insert into attempts values
  ($$select social.respond_friend_request((select id from social.friend_requests limit 1), true)$$),
  ($$select social.cancel_friend_request(gen_random_uuid())$$),
  ($$select grids.remove_from_shelf('b0000000-0000-4000-8000-000000000001')$$),
  ($$select grids.start_group('b0000000-0000-4000-8000-000000000001')$$),
  ($$select grids.invite_to_group('b0000000-0000-4000-8000-000000000002', array[auth.uid()])$$),
  ($$select grids.leave_group('b0000000-0000-4000-8000-000000000002')$$),
  ($$select grids.respond_group_invite(gen_random_uuid(), true)$$),
  ($$select grids.save_grid('{"id":"a0000000-0000-4000-8000-000000000001","title":"Mine now","color":"ink","theme":"calm","size":7,"updated_at":"2026-12-01"}')$$),
  ($$select grids.set_grid_shared('a0000000-0000-4000-8000-000000000001', false)$$),
  ($$select grids.start_group_from_template('a0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001')$$),
  ($$select grids.sync_push('moments', '[{"id":"c0000000-0000-4000-8000-000000000001","title":"pwned","updated_at":"2026-12-01"}]')$$),
  ($$select grids.sync_push('moments', '[{"id":"c0000000-0000-4000-8000-000000000002","title":"pwned","updated_at":"2026-12-01"}]')$$),
  ($$select grids.sync_push('user_grids', '[{"id":"b0000000-0000-4000-8000-000000000001","deleted":true,"updated_at":"2026-12-01"}]')$$),
  ($$select grids.sync_push('moment_entries', '[{"id":"e0000000-0000-4000-8000-000000000002","body":"pwned","updated_at":"2026-12-01"}]')$$),
  ($$select grids.sync_push('moments', format('[{"id":"%s","user_square_id":"%s","title":"x","happened_on":"2026-01-01"}]', gen_random_uuid(), private.v5('square:b0000000-0000-4000-8000-000000000002:17')))$$),
  ($$select social.admin_hide_grid('a0000000-0000-4000-8000-000000000001')$$),
  ($$select social.admin_suspend_sharing((select id from social.profiles where username = 'vic'))$$),
  ($$select social.admin_lift_suspension(auth.uid())$$),
  ($$update grids.moments set title = 'pwned'$$),
  ($$update grids.user_grids set audience = 'public'$$),
  ($$update grids.moment_entries set body = 'pwned'$$),
  ($$update social.profiles set bio = 'pwned' where username = 'vic'$$),
  ($$delete from grids.moments$$),
  ($$delete from storage.objects$$),
  ($$insert into grids.group_members values ('b0000000-0000-4000-8000-000000000002', auth.uid())$$),
  ($$select social.redeem_friend_code('0000000000')$$);
select tests.fingerprint() as before \gset

-- reads first
select tests.act_as(:'s');
select ok((select count(*) from grids.moments) = 0 and (select count(*) from grids.moment_entries) = 0
          and grids.person_grid('b0000000-0000-4000-8000-000000000001') is null
          and grids.person_moment('c0000000-0000-4000-8000-000000000001') is null
          and (select count(*) from grids.visible_moments_of(:'v')) = 0, 'stranger: reads nothing of vic''s');
select tests.act_as(:'b');
select ok(grids.profile_view(:'v') is null and (select count(*) from social.search_usernames('vic') x where x.username = 'vic') = 0
          and social.peek_friend_code(:'code') ->> 'status' = 'invalid'
          and social.redeem_friend_code(:'code') ->> 'status' = 'invalid'
          and grids.atlas_preview('a0000000-0000-4000-8000-000000000001') is null, 'blocked: cannot find or see vic, code answers invalid');
select is(social.send_friend_request(:'v'), 'sent', 'blocked: a request looks sent');
select tests.act_as(:'u');
select ok((select count(*) from grids.moment_entries) = 0 and grids.person_moment('c0000000-0000-4000-8000-000000000001') is not null,
  'suspended friend: sees vic''s Friends moment, not the group');
select tests.act_as_anon();
select ok(tests.try('select grids.profile_view(gen_random_uuid())') = '42501'
          and tests.try('select social.get_social_snapshot()') = '42501'
          and tests.try('select * from grids.moments') = '42501', 'anon: RPCs and tables refused');

-- every attempt, every actor; only the blocked user's own suppressed request differs
select tests.clear_authentication();
delete from social.friend_requests where from_id = :'b';
select tests.fingerprint() as before \gset
select tests.act_as(:'s');
select ok((select count(*) from attempts a where tests.try(a.sql) = 'ran') >= 0, 'stranger ran every attempt');
select tests.clear_authentication();
select is(tests.fingerprint(), :'before', 'stranger: no row changed');
select tests.act_as(:'b');
select ok((select count(*) from attempts a where tests.try(a.sql) = 'ran') >= 0, 'blocked ran every attempt');
select tests.clear_authentication();
select is(tests.fingerprint(), :'before', 'blocked: no row changed');
select tests.act_as(:'u');
select ok((select count(*) from attempts a where tests.try(a.sql) = 'ran') >= 0, 'suspended ran every attempt');
select tests.clear_authentication();
select is(tests.fingerprint(), :'before', 'suspended: no row changed');
select tests.act_as_anon();
select is((select count(*)::int from attempts a where tests.try(a.sql) = 'ran'), 0, 'anon: every attempt fails');
select tests.clear_authentication();
select is(tests.fingerprint(), :'before', 'anon: no row changed');

select * from finish();
rollback;
