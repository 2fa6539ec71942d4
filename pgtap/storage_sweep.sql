-- The storage sweep: the files of a deleted photo, a deleted moment and a
-- deleted account go once each; a file a live row points at stays; a failure
-- is retried later, and a closed entry is never taken again. Account deletion
-- removes the auth user and its sessions at once.
begin;
select plan(16);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as ben \gset

-- ann's board: a moment with two photos, both stored.
select tests.act_as(:'ann');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', private.v5('grid:starter:small-joys'), now(), now());
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Tea', '2026-01-01',
   '2026-01-01', '2026-01-01'),
  ('c0000000-0000-4000-8000-000000000002', private.v5('square:b0000000-0000-4000-8000-000000000001:25'), 'Cake', '2026-01-01',
   '2026-01-01', '2026-01-01');
insert into grids.photos (id, moment_id, created_at, updated_at) values
  ('d0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', now(), now()),
  ('d0000000-0000-4000-8000-000000000002', 'c0000000-0000-4000-8000-000000000002', now(), now()),
  ('d0000000-0000-4000-8000-000000000003', 'c0000000-0000-4000-8000-000000000002', now(), now());
insert into storage.objects (bucket_id, name, owner, content) values
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000001.webp', :'ann', 'one'),
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000002.webp', :'ann', 'two'),
  ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000003.webp', :'ann', 'three');

select tests.act_as(:'ann');
select throws_ok($$select private.sweep_storage_deletions()$$, '42501', null, 'a client cannot run the sweep');

-- A deleted photo, and a deleted moment whose photos follow it.
update grids.photos set deleted = true, updated_at = now() + interval '1 second' where id = 'd0000000-0000-4000-8000-000000000001';
update grids.moments set deleted = true, updated_at = now() + interval '1 second' where id = 'c0000000-0000-4000-8000-000000000002';
select tests.act_as_service();
select is((select count(distinct name)::int from private.storage_deletions where done_at is null), 3, 'three files are queued');
-- A queued name a live row still points at (a stale entry) must not go.
insert into private.storage_deletions (bucket, name) values ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000009.webp');
select tests.act_as(:'ann');
insert into grids.photos (id, moment_id, created_at, updated_at)
select 'd0000000-0000-4000-8000-000000000009', 'c0000000-0000-4000-8000-000000000001', now(), now();
select tests.act_as_service();
insert into storage.objects (bucket_id, name, owner, content)
values ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000009.webp', :'ann', 'live');

-- One file's removal fails while test.refuse is on (a stand-in for a storage error).
create function pg_temp.refuse() returns trigger language plpgsql as $$
begin
  if old.name like '%000000000003.webp' and current_setting('test.refuse', true) = 'on' then
    raise exception 'storage is not answering';
  end if;
  return old;
end $$;
create trigger refuse before delete on storage.objects for each row execute function pg_temp.refuse();
select set_config('test.refuse', 'on', true);

select is(private.sweep_storage_deletions() - 'pending',
  '{"removed": 2, "absent": 0, "in_use": 1, "failed": 1}'::jsonb, 'the sweep removes two, keeps the live one, and one fails');
select ok(not exists (select 1 from storage.objects where name like '%000000000001.webp' or name like '%000000000002.webp'),
  'the deleted photo''s and the deleted moment''s files are gone');
select ok(exists (select 1 from storage.objects where name like '%000000000009.webp'), 'a file a live photo points at stays');
select ok(exists (select 1 from storage.objects where name like '%000000000003.webp'), 'the failed one is still there');
select is((select string_agg(distinct last_error, ',') from private.storage_deletions where name like '%000000000003.webp'), 'storage is not answering',
  'its entry keeps the error');
select ok((select bool_and(next_attempt_at > now()) from private.storage_deletions where name like '%000000000003.webp'),
  'and waits before it is tried again');
select is(private.sweep_storage_deletions() - 'pending', '{"removed": 0, "absent": 0, "in_use": 0, "failed": 0}'::jsonb,
  'a second sweep at once takes nothing: done entries are closed, the failed one waits');
select set_config('test.refuse', 'off', true);
update private.storage_deletions set next_attempt_at = now() - interval '1 second' where name like '%000000000003.webp';
select is(private.sweep_storage_deletions() ->> 'removed', '1', 'after the back-off it is removed');
select is((select count(*)::int from private.storage_deletions where done_at is null), 0, 'nothing is left pending');

-- Account deletion: rows, sessions and the auth user at once; the files follow with the sweep.
insert into auth.refresh_sessions (id, user_id) values ('f0000000-0000-4000-8000-000000000001', :'ben');
insert into storage.objects (bucket_id, name, owner, content) values ('avatars', :'ben' || '/avatar.webp', :'ben', 'face');
select tests.act_as(:'ben');
select is(social.delete_account() ->> 'status', 'deleted', 'ben deletes his account');
select tests.act_as_service();
select ok(not exists (select 1 from auth.users where id = :'ben'), 'his auth user is gone at once');
select ok(not exists (select 1 from auth.refresh_sessions where id = 'f0000000-0000-4000-8000-000000000001'), 'his session is gone with him');
select is(private.sweep_storage_deletions() ->> 'removed', '1', 'the sweep removes his avatar');
select ok(not exists (select 1 from storage.objects where owner = :'ben'), 'none of his files is left');

select * from finish();
rollback;
