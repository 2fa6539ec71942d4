-- can_view() truth tables and the read RPCs (T24-T35, T76, T24-T31 matrix).
begin;
select plan(32);

select tests.create_user('owner@example.test', null, '{"username":"olive"}') as o \gset
select tests.create_user('friend@example.test', null, '{"username":"friendly"}') as f \gset
select tests.create_user('stranger@example.test', null, '{"username":"stranger"}') as s \gset
select tests.create_user('blocked@example.test', null, '{"username":"blocked"}') as b \gset
insert into social.friendships values (least(:'o'::uuid, :'f'::uuid), greatest(:'o'::uuid, :'f'::uuid));
insert into social.friendships values (least(:'o'::uuid, :'b'::uuid), greatest(:'o'::uuid, :'b'::uuid));
insert into social.blocks (blocker_id, blocked_id) values (:'b', :'o');
insert into grids.grids (id, kind, owner_id, title, color, theme, size, created_at, updated_at)
values ('a0000000-0000-4000-8000-000000000001', 'made', :'o', 'Mine', 'coral', 'everyday', 7, now(), now());
insert into grids.grid_squares select 'a0000000-0000-4000-8000-000000000001', p, 'Prompt ' || p from generate_series(0, 48) p;

-- one user_grid per G, one moment per M on it (position 24 + neighbours)
create temp table cases (g text, m text, ug uuid, mo uuid);
insert into cases select g, m, private.v5('ug:' || g), private.v5('m:' || g || m)
from unnest(array['private','friends','public']) g, unnest(array['private','friends','public']) m;
insert into grids.user_grids (id, user_id, grid_id, audience, created_at, updated_at)
select distinct ug, :'o'::uuid, 'a0000000-0000-4000-8000-000000000001'::uuid, g::grids.audience, now(), now() from cases;
insert into grids.moments (id, user_square_id, user_grid_id, user_id, title, body, place, happened_on, audience, created_at, updated_at)
select mo, private.v5('square:' || ug || ':' || (case m when 'private' then 24 when 'friends' then 17 else 23 end)), ug, :'o'::uuid,
       'T ' || g || m, 'words', 'secret place', '2026-01-01', m::grids.audience, now(), now() from cases;
grant select on cases to public;

create function tests.seen(v uuid) returns text language sql as $$
  select string_agg(g || '/' || m || '=' || case when private.can_view(v, 'moment', mo) then 'Y' else 'N' end, ' ' order by g, m) from cases $$;
grant execute on function tests.seen(uuid) to public;

-- T24 owner sees everything, including hidden
select tests.act_as(:'o');
select is(tests.seen(:'o'), 'friends/friends=Y friends/private=Y friends/public=Y private/friends=Y private/private=Y private/public=Y public/friends=Y public/private=Y public/public=Y',
  'T24 the owner sees their moment in every audience combination');
-- T25 friend / T31 matrix
select tests.act_as(:'f');
select is(tests.seen(:'f'), 'friends/friends=Y friends/private=N friends/public=Y private/friends=N private/private=N private/public=N public/friends=Y public/private=N public/public=Y',
  'T25/T31 friend: effective audience = least(M, G) admits Friends and Public');
-- T26 stranger
select tests.act_as(:'s');
select is(tests.seen(:'s'), 'friends/friends=N friends/private=N friends/public=N private/friends=N private/private=N private/public=N public/friends=N public/private=N public/public=Y',
  'T26/T31 signed-in stranger: only G Pub / M Pub');
-- T28 blocked pair, both directions
select tests.act_as(:'b');
select is(tests.seen(:'b'), 'friends/friends=N friends/private=N friends/public=N private/friends=N private/private=N private/public=N public/friends=N public/private=N public/public=N',
  'T28 blocked pair: nothing');
select is(grids.profile_view(:'o'), null, 'T28 profile_view is null for a blocked pair');
select is((select count(*)::int from social.search_usernames('olive')), 0, 'T28 search hides a blocked pair');
select ok(not private.can_view(:'b', 'profile', :'o') and not private.can_view(:'b', 'avatar', :'o')
          and not private.can_view(:'b', 'user_grid', private.v5('ug:public')), 'T28 profile, avatar, user_grid: no');
select tests.act_as(:'o');
select ok(not private.can_view(:'o', 'profile', :'b'), 'T28 ... in the other direction too');
-- T27 anon
select tests.act_as_anon();
select ok(not private.can_view(null, 'moment', private.v5('m:publicpublic')) and not private.can_view(null, 'profile', :'o')
          and not private.can_view(null, 'grid', 'a0000000-0000-4000-8000-000000000001'), 'T27 anon: every object no');
select throws_ok($$select grids.profile_view('00000000-0000-0000-0000-000000000001')$$, '42501', null, 'T27 anon cannot call profile_view');
-- a client cannot ask about someone else
select tests.act_as(:'s');
select is(private.can_view(:'o', 'moment', private.v5('m:privateprivate')), false, 'can_view answers only about the caller');

-- T29 suspended owner: Public reaches a friend, not a stranger
select tests.clear_authentication();
update social.profiles set sharing_suspended_at = now() where id = :'o';
select tests.act_as(:'f');
select is(private.can_view(:'f', 'moment', private.v5('m:publicpublic')), true, 'T29 suspended owner: a Public moment reaches a friend');
select tests.act_as(:'s');
select is(private.can_view(:'s', 'moment', private.v5('m:publicpublic')), false, 'T29 ... but not a stranger');
select is(tests.seen(:'s'), 'friends/friends=N friends/private=N friends/public=N private/friends=N private/private=N private/public=N public/friends=N public/private=N public/public=N',
  'T31 with suspension the stranger column is empty');
select tests.clear_authentication();
update social.profiles set sharing_suspended_at = null where id = :'o';

-- T30 hidden solo moment: only the owner
update grids.moments set hidden_at = now() where id = private.v5('m:publicpublic');
select tests.act_as(:'f');
select is(private.can_view(:'f', 'moment', private.v5('m:publicpublic')), false, 'T30 a hidden moment: not the friend');
select tests.act_as(:'o');
select is(private.can_view(:'o', 'moment', private.v5('m:publicpublic')), true, 'T30 ... but the owner');
select tests.clear_authentication();
update grids.moments set hidden_at = null where id = private.v5('m:publicpublic');

-- T32 person_grid / person_moment never return place, weather, with_whom
select tests.act_as(:'f');
select ok(grids.person_grid(private.v5('ug:public'))::text not like '%secret place%'
          and grids.person_moment(private.v5('m:publicpublic'))::text not like '%secret place%'
          and grids.person_moment(private.v5('m:publicpublic')) ->> 'title' = 'T publicpublic', 'T32 no place, weather or with_whom');
select is(jsonb_array_length(grids.profile_view(:'o') -> 'grids'), 2, 'profile_view shows the grids reaching a friend (Friends + Public)');
select is((select count(*)::int from jsonb_array_elements(grids.person_grid(private.v5('ug:public')) -> 'squares') x
           where x ->> 'state' = 'done' and x -> 'moment' = 'null'::jsonb), 1,
  'person_grid: a done square whose moment the viewer cannot see shows done with moment null');
select is((select count(*)::int from grids.visible_moments_of(:'o')), 4, 'visible_moments_of: the friend sees the 4 Friends/Public moments');
select is((select count(*)::int from grids.visible_moments_of(:'o')),
          (select count(*)::int from cases where private.can_view(:'f', 'moment', mo)), 'visible_moments_of agrees with can_view row by row');
select tests.act_as(:'s');
select is(jsonb_array_length(grids.profile_view(:'o') -> 'grids'), 1, 'profile_view: a stranger sees only the Public grid');
select is(grids.profile_view(:'o') ->> 'avatar_path', null, 'T34 no avatar for a stranger');
select is(grids.profile_view('00000000-0000-0000-0000-000000000009'), null, 'T34 null for an unknown id');

-- T33 group grids never on profiles, person_grid null
select tests.clear_authentication();
update grids.user_grids set group_id = id, audience = 'private' where id = private.v5('ug:public');
insert into grids.group_members values (private.v5('ug:public'), :'o'), (private.v5('ug:public'), :'f');
select tests.act_as(:'f');
select is(grids.person_grid(private.v5('ug:public')), null, 'T33 person_grid on a group grid returns null, even for a member');
select is(jsonb_array_length(grids.profile_view(:'o') -> 'grids'), 1, 'T33 group grids never appear in profile_view');
select tests.clear_authentication();
update social.profiles set avatar_path = :'o' || '/00000000-0000-4000-8000-000000000001.webp' where id = :'o';
select tests.act_as(:'f');
select isnt(grids.profile_view(:'o') ->> 'avatar_path', null, 'T34 a friend sees the avatar');

-- T76 after remove_friend, Friends moments vanish from person_grid
select tests.act_as(:'o');
select social.remove_friend(:'f');
select tests.act_as(:'f');
select is(grids.person_grid(private.v5('ug:friends')), null, 'T76 after remove_friend the Friends grid is gone for the ex-friend');

-- T35 templates
select tests.act_as(:'s');
select is(grids.atlas_preview('a0000000-0000-4000-8000-000000000001'), null, 'T35 an unshared made grid is not visible to a stranger');
select tests.clear_authentication();
update grids.grids set shared = true, shared_at = now() where id = 'a0000000-0000-4000-8000-000000000001';
select tests.act_as(:'s');
select is(grids.atlas_preview('a0000000-0000-4000-8000-000000000001') ->> 'title', 'Mine', 'T35 a shared grid is visible to a stranger');
insert into grids.user_grids (id, grid_id, created_at, updated_at) values ('b0000000-0000-4000-8000-0000000000aa', 'a0000000-0000-4000-8000-000000000001', now(), now());
select tests.clear_authentication();
update grids.grids set hidden_at = now() where id = 'a0000000-0000-4000-8000-000000000001';
select tests.create_user('tess@example.test', null, '{"username":"tess"}') as t \gset
select tests.act_as(:'t');
select is(grids.atlas_preview('a0000000-0000-4000-8000-000000000001'), null, 'T35 a hidden grid is not visible to others');
select tests.act_as(:'s');
select is(grids.get_template('a0000000-0000-4000-8000-000000000001') ->> 'title', 'Mine', 'T35 but an adder still gets get_template');

select * from finish();
rollback;
