-- Photo and avatar objects in storage (T05 storage half, T20 tombstone half,
-- T22, T23, T28 photo): the object is readable exactly while can_view() holds,
-- and a client deletes only under its own folder.
begin;
select plan(18);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as ben \gset
select tests.create_user('cat@example.test', null, '{"username":"cat"}') as cat \gset
select tests.create_user('dan@example.test', null, '{"username":"dan"}') as dan \gset
select tests.create_user('eve@example.test', null, '{"username":"eve"}') as eve \gset
select tests.create_user('fay@example.test', null, '{"username":"fay"}') as fay \gset
select tests.create_user('gus@example.test', null, '{"username":"gus"}') as gus \gset
-- fay and eve are ann's friends; gus shares a group with ann but is not a friend; dan is a stranger
insert into social.friendships values
  (least(:'ann'::uuid, :'fay'::uuid), greatest(:'ann'::uuid, :'fay'::uuid)),
  (least(:'ann'::uuid, :'eve'::uuid), greatest(:'ann'::uuid, :'eve'::uuid)),
  (least(:'ann'::uuid, :'ben'::uuid), greatest(:'ann'::uuid, :'ben'::uuid));

-- What a caller can read of the objects, by name (the worker serves GET this way).
create function tests.readable(p_bucket text) returns text language sql as $$
  select coalesce(string_agg(split_part(name, '/', 2), ',' order by split_part(name, '/', 2)), '')
  from storage.objects where bucket_id = p_bucket $$;
grant execute on function tests.readable(text) to authenticated;

-- ann's group grid with two members besides her, one Private and one Group photo
select tests.act_as(:'ann');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Photo walk',
  'color', 'sky', 'theme', 'outdoors', 'size', 7,
  'squares', (select jsonb_agg('Photograph thing ' || i) from generate_series(1, 49) i))) is not null as saved;
insert into grids.user_grids (id, grid_id, audience, created_at, updated_at) values
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'private', now(), now()),
  ('b0000000-0000-4000-8000-000000000002', 'a0000000-0000-4000-8000-000000000001', 'friends', now(), now());
select grids.start_group('b0000000-0000-4000-8000-000000000001') is not null as grouped;
select tests.clear_authentication();
insert into grids.group_members (group_id, user_id) values
  ('b0000000-0000-4000-8000-000000000001', :'ben'), ('b0000000-0000-4000-8000-000000000001', :'cat'),
  ('b0000000-0000-4000-8000-000000000001', :'gus'), ('b0000000-0000-4000-8000-000000000001', :'eve');
select tests.act_as(:'ann');
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Together', '2026-01-01', now(), now());
insert into grids.photos (id, moment_id, audience, created_at, updated_at) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', 'private', now(), now()),
  ('d0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000001', 'group', now(), now());
insert into storage.objects (bucket_id, name, owner, content) values
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000001.webp', :'ann', 'x'),
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000002.webp', :'ann', 'x');

-- T22 a group Private photo: its author only; a Group photo: members, not ex-members
select is(tests.readable('photos'), 'd0000000-0000-4000-8000-000000000001.webp,d0000000-0000-4000-8000-000000000002.webp',
  'T22 the author reads both of her group photo objects');
select tests.act_as(:'ben');
select is(tests.readable('photos'), 'd0000000-0000-4000-8000-000000000002.webp',
  'T22 another member reads the Group photo, not the Private one');
select tests.act_as(:'cat');
select is(tests.readable('photos'), 'd0000000-0000-4000-8000-000000000002.webp', 'T22 cat reads it while a member');
select grids.leave_group('b0000000-0000-4000-8000-000000000001') is not null as left_group;
select is(tests.readable('photos'), '', 'T22 ... and nothing once she left (ex-member)');
select tests.act_as(:'dan');
select is(tests.readable('photos'), '', 'T22 a non-member reads neither');

-- T20 a solo Friends photo, then its moment is tombstoned
select tests.act_as(:'ann');
insert into grids.moments (id, user_square_id, title, happened_on, audience, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000002', private.v5('square:b0000000-0000-4000-8000-000000000002:24'), 'Solo', '2026-01-01', 'friends', now(), now());
insert into grids.photos (id, moment_id, created_at, updated_at) values
  ('d0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000002', now(), now());
insert into storage.objects (bucket_id, name, owner, content) values
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000003.webp', :'ann', 'x');
select tests.act_as(:'fay');
select is(tests.readable('photos'), 'd0000000-0000-4000-8000-000000000003.webp', 'T20 a friend reads a Friends moment''s photo');

-- T23 avatars: friends and co-members, not strangers or a blocked pair
select tests.act_as(:'ann');
insert into storage.objects (bucket_id, name, owner, content) values
  ('avatars', :'ann' || '/f0000000-0000-4000-8000-000000000001.webp', :'ann', 'x');
select social.update_profile(p_avatar_path => :'ann' || '/f0000000-0000-4000-8000-000000000001.webp') is not null as avatar_set;
select tests.act_as(:'eve');
insert into storage.objects (bucket_id, name, owner, content) values
  ('avatars', :'eve' || '/f0000000-0000-4000-8000-000000000002.webp', :'eve', 'x');
select social.update_profile(p_avatar_path => :'eve' || '/f0000000-0000-4000-8000-000000000002.webp') is not null as avatar_set;
select is(tests.readable('avatars'), 'f0000000-0000-4000-8000-000000000001.webp,f0000000-0000-4000-8000-000000000002.webp',
  'T23 eve, a friend and co-member, reads ann''s avatar (and her own)');
select tests.act_as(:'fay');
select is(tests.readable('avatars'), 'f0000000-0000-4000-8000-000000000001.webp', 'T23 a friend reads the avatar');
select tests.act_as(:'gus');
select is(tests.readable('avatars'), 'f0000000-0000-4000-8000-000000000001.webp,f0000000-0000-4000-8000-000000000002.webp',
  'T23 a co-member who is not a friend reads the avatars of the group');
select tests.act_as(:'dan');
select is(tests.readable('avatars'), '', 'T23 a stranger reads no avatar');
select tests.act_as(:'ann');
select social.block_user(:'eve');
select tests.act_as(:'eve');
select is(tests.readable('avatars'), 'f0000000-0000-4000-8000-000000000002.webp',
  'T23 once blocked (still co-members), the blocked one no longer reads the blocker''s avatar');
select tests.act_as(:'ann');
select is(tests.readable('avatars'), 'f0000000-0000-4000-8000-000000000001.webp',
  'T23 ... nor the blocker the blocked one''s');
select tests.act_as(:'eve');
select is(tests.readable('photos'), '', 'T28 a blocked pair reads none of each other''s photos');

select tests.act_as(:'ann');
update grids.moments set deleted = true, updated_at = now() + interval '1 minute' where id = 'c0000000-0000-4000-8000-000000000002';
select tests.act_as(:'fay');
select is(tests.readable('photos'), '', 'T20 the object is unreadable once its moment is tombstoned');
select tests.act_as(:'ann');
select is(tests.readable('photos'), 'd0000000-0000-4000-8000-000000000001.webp,d0000000-0000-4000-8000-000000000002.webp',
  'T20 ... even for its owner (the row is a tombstone), while her live group photos stay');

-- T05 storage half: delete only under the own folder; never under groups/
select tests.act_as(:'ben');
insert into storage.objects (bucket_id, name, owner, content) values
  ('photos', :'ben' || '/d0000000-0000-4000-8000-000000000009.webp', :'ben', 'x');
select tests.clear_authentication();
insert into storage.objects (bucket_id, name, content) values
  ('photos', 'groups/b0000000-0000-4000-8000-000000000001/d0000000-0000-4000-8000-000000000008.webp', 'x');
select tests.act_as(:'ann');
delete from storage.objects where name like :'ben' || '/%' or name like 'groups/%';
update storage.objects set content = 'y' where name like :'ben' || '/%';
select tests.clear_authentication();
select is((select count(*)::int from storage.objects where (name like :'ben' || '/%' and content = 'x') or name like 'groups/%'), 2,
  'T05 deleting or updating under another user''s folder or groups/ changes nothing');
select tests.act_as(:'ann');
delete from storage.objects;
select tests.clear_authentication();
select is((select count(*)::int from storage.objects where split_part(name, '/', 1) in (:'ben', :'eve', 'groups')), 3,
  'T05 deleting everything removes none of the others'' objects');
select is((select count(*)::int from storage.objects where name like :'ann' || '/%'), 0, 'T05 ... all of them, in both buckets');

select * from finish();
rollback;
