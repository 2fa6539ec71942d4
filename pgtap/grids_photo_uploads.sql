-- Photo files through storage (§1.4, §6.2): uploaded_at is set by the server
-- once the object is stored, as a server write other phones pull.
begin;
select plan(10);

select tests.create_user('ann@example.test', null, '{"username":"ann"}') as ann \gset
select tests.create_user('ben@example.test', null, '{"username":"ben"}') as ben \gset

select tests.act_as(:'ann');
insert into grids.user_grids (id, grid_id, created_at, updated_at)
values ('b0000000-0000-4000-8000-000000000001', private.v5('grid:starter:small-joys'), now(), now());
insert into grids.moments (id, user_square_id, title, happened_on, created_at, updated_at) values
  ('c0000000-0000-4000-8000-000000000001', private.v5('square:b0000000-0000-4000-8000-000000000001:24'), 'Tea', '2026-01-01',
   '2026-01-01', '2026-01-01');
select (grids.sync_push('photos', jsonb_build_array(jsonb_build_object('id', 'd0000000-0000-4000-8000-000000000001',
  'moment_id', 'c0000000-0000-4000-8000-000000000001', 'created_at', '2026-01-01', 'updated_at', '2026-01-01T10:00:00Z',
  'device_id', 'aaaaaaaa-0000-4000-8000-000000000000'))) -> 0 ->> 'outcome') = 'applied' as pushed;

select throws_ok($$select grids.photo_uploaded('d0000000-0000-4000-8000-000000000001')$$, 'P0001', 'file_missing',
  'marking a photo uploaded before its file is stored is refused');
insert into storage.objects (bucket_id, name, owner, content)
values ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000001.webp', :'ann', 'webp bytes');

select tests.act_as(:'ben');
select throws_ok($$select grids.photo_uploaded('d0000000-0000-4000-8000-000000000001')$$, 'P0001', 'not_found',
  'someone else cannot mark the photo');
select throws_ok($$select private.mark_photo_uploaded('d0000000-0000-4000-8000-000000000001')$$, '42501', null,
  'a client cannot call the worker''s private.mark_photo_uploaded');

select tests.act_as(:'ann');
select grids.photo_uploaded('d0000000-0000-4000-8000-000000000001') as answer \gset
select ok((:'answer'::jsonb ->> 'uploaded_at') is not null, 'the author marks it uploaded and gets the stored row back');
select is(:'answer'::jsonb ->> 'device_id', '00000000-0000-0000-0000-000000000000', 'it is a server write (device_id nil, C7)');
select ok((:'answer'::jsonb ->> 'updated_at')::timestamptz > '2026-01-01T10:00:00Z',
  'its updated_at beats the phone''s write, so every phone pulls it');
select is((grids.photo_uploaded('d0000000-0000-4000-8000-000000000001') ->> 'uploaded_at'), :'answer'::jsonb ->> 'uploaded_at',
  'marking again changes nothing');
select ok(exists (select 1 from jsonb_array_elements(grids.sync_pull('photos') -> 'rows') r
                  where r ->> 'id' = 'd0000000-0000-4000-8000-000000000001' and r ->> 'uploaded_at' is not null),
  'a pull carries uploaded_at');

-- the worker path: a stored object marks the photo through the service role
select grids.sync_push('photos', jsonb_build_array(jsonb_build_object('id', 'd0000000-0000-4000-8000-000000000002',
  'moment_id', 'c0000000-0000-4000-8000-000000000001', 'created_at', '2026-01-01', 'updated_at', '2026-01-01'))) is not null as pushed;
insert into storage.objects (bucket_id, name, owner, content)
values ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000002.webp', :'ann', 'webp bytes');
select tests.act_as_service();
select ok(private.mark_photo_uploaded('d0000000-0000-4000-8000-000000000002'), 'the service role marks a stored photo uploaded');

-- a tombstoned photo is never marked
select tests.act_as(:'ann');
select grids.sync_push('photos', jsonb_build_array(jsonb_build_object('id', 'd0000000-0000-4000-8000-000000000003',
  'moment_id', 'c0000000-0000-4000-8000-000000000001', 'deleted', true, 'created_at', '2026-01-01', 'updated_at', '2026-01-01'))) is not null as pushed;
insert into storage.objects (bucket_id, name, owner, content)
values ('photos', :'ann' || '/d0000000-0000-4000-8000-000000000003.webp', :'ann', 'webp bytes');
select is(grids.photo_uploaded('d0000000-0000-4000-8000-000000000003') ->> 'uploaded_at', null,
  'a deleted photo stays not uploaded');

select * from finish();
rollback;
