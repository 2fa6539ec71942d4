-- What the admin site at /admin reads and does (docs/admin-site.md): the queue with
-- reporter and picture, a report with its actions, the moderation log, a person's
-- suspensions with the hides behind an automatic one, reported pictures; an unhidden
-- grid back in the Atlas. None of it for anyone but an admin.
begin;
select plan(20);

select tests.create_user('mia@example.test', null, '{"username":"mia"}') as m \gset
select tests.create_user('ned@example.test', null, '{"username":"ned"}') as n \gset
select tests.create_user('ola@example.test', null, '{"username":"ola"}') as o \gset
select tests.create_user('ada@example.test', null, '{"username":"ada"}') as adm \gset
insert into social.admins (user_id) values (:'adm');
-- Each step a minute after the last, so "newest first" has an order.
create function tests.tick(p_minutes int) returns void language sql as $$
  select tests.freeze_time('2026-03-01 10:00:00+00'::timestamptz + make_interval(mins => p_minutes)) $$;
grant execute on function tests.tick(int) to authenticated, anon;
select tests.tick(0);
create function tests.in_atlas(p_title text) returns boolean language sql as $$
  select exists (select 1 from jsonb_array_elements(grids.atlas_search(p_title)) c where c ->> 'title' = p_title) $$;
grant execute on function tests.in_atlas(text) to authenticated;
create function tests.readable(p_bucket text) returns int language sql as $$
  select count(*)::int from storage.objects where bucket_id = p_bucket $$;
grant execute on function tests.readable(text) to authenticated;

-- mia shares two grids and has an avatar; ned reports the first grid and mia herself
select tests.act_as(:'m');
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Loud walks',
  'color', 'sage', 'theme', 'outdoors', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Walk loudly ' || i) from generate_series(1, 49) i))) is not null as saved;
select grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000002', 'title', 'Quiet walks',
  'color', 'sky', 'theme', 'outdoors', 'size', 7, 'shared', true,
  'squares', (select jsonb_agg('Walk quietly ' || i) from generate_series(1, 49) i))) is not null as saved;
insert into storage.objects (bucket_id, name, owner, content)
values ('avatars', :'m' || '/f0000000-0000-4000-8000-000000000001.webp', :'m', 'x');
select social.update_profile(p_avatar_path => :'m' || '/f0000000-0000-4000-8000-000000000001.webp') is not null as avatar_set;
select tests.act_as(:'n');
select social.report('grid', 'a0000000-0000-4000-8000-000000000001', 'spam', 'ads everywhere') is not null as reported;
select tests.tick(1);
select social.report('user', :'m', 'harassment', '') is not null as reported;

-- Nobody but an admin reads any of it
select throws_ok($$select social.admin_moderation_log()$$, 'P0001', 'not_allowed', 'a signed-in non-admin gets no moderation log');
select throws_ok($$select social.admin_user('$$ || :'m' || $$')$$, 'P0001', 'not_allowed', 'nor a person''s moderation record');
select throws_ok($$select social.admin_get_report(gen_random_uuid())$$, 'P0001', 'not_allowed', 'nor a report');
select is(tests.readable('avatars'), 0, 'ned, who reported her, does not read mia''s avatar');
select tests.act_as_anon();
select throws_ok($$select social.admin_moderation_log()$$, '42501', null, 'anon may not even call the log');

-- The queue: what, by whom, with a picture where there is one
select tests.act_as(:'adm');
select is((select string_agg(r ->> 'target_type' || ':' || (r ->> 'reporter_username') || ':' || coalesce(r ->> 'summary', '')
                             || ':' || coalesce(r ->> 'picture_path', '-'), ',' order by r ->> 'target_type')
           from jsonb_array_elements(social.admin_list_reports()) r),
  'grid:ned:Loud walks:-,user:ned:mia:' || :'m' || '/f0000000-0000-4000-8000-000000000001.webp',
  'the queue names the reporter, the target and the reported person''s picture');
select is(tests.readable('avatars'), 1, 'an admin reads the avatar of someone under an open report');

-- Hide, then unhide: out of the Atlas and back, each action in the report and the log
select (social.admin_list_reports() -> 1 ->> 'id') as grid_report \gset
select tests.tick(2);
select social.admin_hide_grid('a0000000-0000-4000-8000-000000000001', :'grid_report', 'ads') is not null as hid;
select tests.act_as(:'o');
select is(tests.in_atlas('Loud walks'), false, 'a hidden grid is not in the Atlas');
select tests.act_as(:'m');
select is(grids.save_grid(jsonb_build_object('id', 'a0000000-0000-4000-8000-000000000001', 'title', 'Loud walks',
  'color', 'coral', 'theme', 'outdoors', 'shared', true, 'updated_at', now() + interval '1 second')) ->> 'hidden', 'true',
  'its maker may edit it while hidden, and is told it is hidden');
select tests.act_as(:'o');
select is(tests.in_atlas('Loud walks'), false, '... and the edit does not bring it back');
select tests.act_as(:'adm');
select tests.tick(3);
select social.admin_unhide_grid('a0000000-0000-4000-8000-000000000001', null, 'second look') is not null as unhid;
select tests.act_as(:'o');
select is(tests.in_atlas('Loud walks'), true, 'unhiding puts it back in the Atlas as its maker left it');
select tests.act_as(:'adm');
select is((select string_agg((a ->> 'action') || ':' || (a ->> 'admin_username') || ':' || (a ->> 'note'), ',')
           from jsonb_array_elements(social.admin_get_report(:'grid_report') -> 'actions') a),
  'hide_grid:ada:ads', 'the report lists the action taken on it, by whom, with the note');
select is(social.admin_get_report(:'grid_report') ->> 'reporter_username', 'ned', 'the report names its reporter');

-- Two hides in 30 days: the automatic suspension, with the hides behind it
select tests.tick(4);
select social.admin_hide_grid('a0000000-0000-4000-8000-000000000001', null, 'again') is not null as hid;
select tests.tick(5);
select social.admin_hide_grid('a0000000-0000-4000-8000-000000000002', null, 'and this one') is not null as hid;
select is((social.admin_user(:'m') ->> 'suspended')::boolean, true, 'two hides suspended mia''s sharing');
select is((select (s ->> 'automatic') || ':' || coalesce(s ->> 'admin_username', 'none') || ':' || (s ->> 'note')
           from jsonb_array_elements(social.admin_user(:'m') -> 'suspensions') s),
  'true:none:automatic: two hides in 30 days', 'her record shows one automatic suspension, by no admin');
select is((select string_agg(h ->> 'grid_title', ',' order by h ->> 'grid_title')
           from jsonb_array_elements(social.admin_user(:'m') -> 'suspensions' -> 0 -> 'hides') h),
  'Loud walks,Quiet walks', 'the hides that made it fire are listed with it (the unhidden one is not)');
select is((select string_agg((a ->> 'action') || ':' || coalesce(a ->> 'admin_username', 'auto'), ',')
           from jsonb_array_elements(social.admin_moderation_log()) a),
  'suspend_sharing:auto,hide_grid:ada,hide_grid:ada,unhide_grid:ada,hide_grid:ada',
  'the log lists every action, newest first, naming the admin');
select is(jsonb_array_length(social.admin_moderation_log(p_subject_user_id => :'n')), 0, 'the log narrows to one person: none against ned');
select is(jsonb_array_length(social.admin_moderation_log(p_subject_user_id => :'m')), 5, '... and all five against mia');

-- A closed report opens no picture
select social.admin_dismiss_report((social.admin_list_reports() -> 0 ->> 'id')::uuid, 'not harassment') is not null as dismissed;
select is(tests.readable('avatars'), 0, 'once the report is closed, the admin no longer reads the avatar');

select * from finish();
rollback;
