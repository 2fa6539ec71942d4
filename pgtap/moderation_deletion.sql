-- Moderation and account deletion (T77-T83).
begin;
select plan(17);

select tests.create_user('mia@example.test', null, '{"username":"mia"}') as m \gset
select tests.create_user('ned@example.test', null, '{"username":"ned"}') as n \gset
select tests.create_user('ada@example.test', null, '{"username":"ada"}') as adm \gset
insert into social.admins (user_id) values (:'adm');
insert into social.friendships values (least(:'m'::uuid, :'n'::uuid), greatest(:'m'::uuid, :'n'::uuid));
-- Made grids among Atlas cards (the starter grids are always there too).
create function tests.made_cards(p_cards jsonb) returns int language sql as $$
  select count(*)::int from jsonb_array_elements(p_cards) c where c ->> 'kind' = 'made' $$;
grant execute on function tests.made_cards(jsonb) to authenticated;

select tests.act_as(:'m');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Shared walks',
  'color', 'sage', 'theme', 'outdoors', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Walk somewhere ' || i) from generate_series(1, 49) i))) is not null as saved;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000002', 'title', 'Second',
  'color', 'sky', 'theme', 'outdoors', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Second one ' || i) from generate_series(1, 49) i))) is not null as saved;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'public', now(), now());
insert into grids.moments (id, user_square_id, title, happened_on, audience, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Walk', '2026-01-01', 'public', now(), now());

select tests.act_as(:'n');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', now(), now());
select is(tests.made_cards(grids.atlas_search('walk')), 1, 'the shared grid is in the Atlas');

-- T80 reports
select throws_ok($$select social.report('moment', gen_random_uuid(), 'spam', '')$$, 'P0001', 'not_found', 'T80 report needs a viewable target');
select is(social.report('grid', 'a0000000-0000-4000-8000-000000000001', 'spam', 'junk') ->> 'status', 'received', 'T80 a report is received');
select is(social.report('grid', 'a0000000-0000-4000-8000-000000000001', 'spam', 'junk') ->> 'status', 'received', 'T80 a repeat answers received');
select throws_ok($$select social.admin_list_reports()$$, 'P0001', 'not_allowed', 'T80 admin RPCs refuse non-admins');
select tests.act_as(:'adm');
select is(jsonb_array_length(social.admin_list_reports()), 1, 'T80 a repeated open report is idempotent (one row)');

-- T77 hiding a grid
select social.admin_hide_grid('a0000000-0000-4000-8000-000000000001', (social.admin_list_reports() -> 0 ->> 'id')::uuid, 'spam') is not null as hidden;
select tests.act_as(:'n');
select ok(tests.made_cards(grids.atlas_search('walk')) = 0 and grids.atlas_rows()::text not like '%Shared walks%'
          and grids.atlas_this_season(5::smallint)::text not like '%Shared walks%', 'T77 a hidden grid leaves search, rows and this season');
select is(grids.get_template('a0000000-0000-4000-8000-000000000001') ->> 'title', 'Shared walks', 'T77 people who added it keep it');

-- T78 a second hide within 30 days suspends automatically
select tests.act_as(:'adm');
select social.admin_hide_moment('c0000000-0000-4000-8000-000000000001') is not null as hidden2;
select tests.clear_authentication();
select ok(private.suspended(:'m') and exists (select 1 from social.moderation_actions where action = 'suspend_sharing' and admin_id is null),
  'T78 a grid hide and a moment hide within 30 days suspend sharing automatically');
update social.profiles set sharing_suspended_at = null where id = :'m';
delete from social.moderation_actions where action = 'suspend_sharing';
update social.moderation_actions set created_at = now() - interval '31 days' where action = 'hide_grid';
update social.moderation_actions set reversed_at = null;
select tests.act_as(:'adm');
select social.admin_unhide_moment('c0000000-0000-4000-8000-000000000001') is not null as unhid;
select social.admin_hide_moment('c0000000-0000-4000-8000-000000000001') is not null as hidden3;
select tests.clear_authentication();
select is(private.suspended(:'m'), false, 'T78 31 days apart (and with one reversed) they do not');

-- T79 hiding a group moment blanks, snapshots and unshares; unhide restores
select tests.act_as(:'m');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000003', 'a0000000-0000-4000-8000-000000000002', now(), now());
select grids.start_group('b0000000-0000-4000-8000-000000000003') is not null as g;
insert into grids.moments (id, user_square_id, title, place, happened_on, created_at, updated_at)
values ('c0000000-0000-4000-8000-000000000003', private.v5('square:b0000000-0000-4000-8000-000000000003:24'), 'Group walk', 'hill', '2026-01-01', now(), now());
insert into grids.moment_entries (id, moment_id, body, audience, created_at, updated_at)
values ('e0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000003', 'we went', 'group', now(), now());
select tests.act_as(:'adm');
select social.admin_hide_moment('c0000000-0000-4000-8000-000000000003') is not null as hid;
select tests.clear_authentication();
select ok((select title = '' and place = '' from grids.moments where id = 'c0000000-0000-4000-8000-000000000003')
      and exists (select 1 from private.moderation_snapshots where moment_id = 'c0000000-0000-4000-8000-000000000003')
      and exists (select 1 from grids.group_unshares where object_id = 'e0000000-0000-4000-8000-000000000003' and reason = 'hidden'),
  'T79 hiding a group moment blanks its shared fields, snapshots them and unshares its parts');
select tests.act_as(:'adm');
select social.admin_unhide_moment('c0000000-0000-4000-8000-000000000003') is not null as unhid;
select tests.clear_authentication();
select is((select title || '/' || place from grids.moments where id = 'c0000000-0000-4000-8000-000000000003'), 'Group walk/hill', 'T79 unhiding restores them');

-- T81-T83 delete_account
insert into grids.group_members values ('b0000000-0000-4000-8000-000000000003', :'n');
select tests.act_as(:'m');
insert into grids.moment_entries (id, moment_id, body, audience, created_at, updated_at)
values ('e0000000-0000-4000-8000-000000000004', 'c0000000-0000-4000-8000-000000000003', '', 'private', now(), now())
on conflict do nothing;
insert into grids.photos (id, moment_id, audience, created_at, updated_at)
values ('d0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000003', 'group', now(), now());
insert into storage.objects (bucket_id, name, owner, content)
values ('photos', :'m' || '/d0000000-0000-4000-8000-000000000003.webp', :'m', 'x');
select social.create_friend_code('link') is not null as code;
insert into grids.profile_interests (id, interest, created_at, updated_at)
values (private.v5('interest:' || :'m' || ':cooking'), 'cooking', now(), now());
select is(social.delete_account() ->> 'status', 'deleted', 'delete_account runs');
select tests.clear_authentication();
select ok((select author_id is null from grids.moment_entries where id = 'e0000000-0000-4000-8000-000000000003')
      and (select user_id is null and storage_path = 'groups/b0000000-0000-4000-8000-000000000003/d0000000-0000-4000-8000-000000000003.webp'
           from grids.photos where id = 'd0000000-0000-4000-8000-000000000003')
      and exists (select 1 from storage.objects where name = 'groups/b0000000-0000-4000-8000-000000000003/d0000000-0000-4000-8000-000000000003.webp'),
  'T81 Group entries and photos stay with a null author; objects renamed to groups/{group_id}/');
select ok(not exists (select 1 from grids.user_grids where id = 'b0000000-0000-4000-8000-000000000001')
      and not exists (select 1 from social.friendships where user_a = :'m' or user_b = :'m')
      and (select owner_id is null and not shared from grids.grids where id = 'a0000000-0000-4000-8000-000000000001'),
  'T82 solo data and friendships are gone; a made grid others use stays, unowned and unshared');
select ok(not exists (select 1 from social.friend_codes where owner_id = :'m')
      and not exists (select 1 from grids.profile_interests where user_id = :'m'),
  'T82 friend codes and interests are gone');
select tests.act_as(:'n');
select grids.leave_group('b0000000-0000-4000-8000-000000000003') is not null as left_n;
select tests.act_as(:'m');
select is(social.delete_account() ->> 'status', 'already_deleted', 'T83 a second call is a no-op');

select * from finish();
rollback;
