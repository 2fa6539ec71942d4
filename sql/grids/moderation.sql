-- Reports, admin actions and automatic suspension (§5.6, §7). Admin RPCs
-- accept a row in social.admins or the service role; they never edit content.

create or replace function private.require_admin() returns uuid
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  if not private.is_admin() then
    perform private.fail('not_allowed', 'Only admins can do this.');
  end if;
  return case when coalesce(auth.role(), '') = 'service_role' then null else auth.uid() end;
end
$$;

create or replace function social.report(p_target_type text, p_target_id uuid, p_reason text,
  p_details text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_owner uuid;
  v_grid uuid;
  v_moment uuid;
  v_snapshot jsonb;
  g grids.grids;
  m grids.moments;
begin
  if p_target_type is null or p_target_type not in ('grid', 'moment', 'user') then
    perform private.fail('target_type_invalid', 'Report a grid, a moment or a user.');
  end if;
  if p_reason is null or p_reason not in ('spam', 'offensive', 'harassment', 'sexual', 'violence', 'self_harm', 'privacy', 'other') then
    perform private.fail('reason_invalid', 'Use spam, offensive, harassment, sexual, violence, self_harm, privacy or other.');
  end if;
  if char_length(coalesce(p_details, '')) > 500 then
    perform private.fail('details_too_long', 'Details are at most 500 characters.');
  end if;
  if p_target_type = 'grid' then
    if not private.can_view(v_uid, 'grid', p_target_id) then
      perform private.fail('not_found', 'Nothing to report with that id.');
    end if;
    select * into g from grids.grids where id = p_target_id;
    v_owner := g.owner_id; v_grid := g.id;
    v_snapshot := private.card(g) || jsonb_build_object('squares',
      (select jsonb_agg(prompt order by position) from grids.grid_squares where grid_id = g.id));
  elsif p_target_type = 'moment' then
    if not private.can_view(v_uid, 'moment', p_target_id) then
      perform private.fail('not_found', 'Nothing to report with that id.');
    end if;
    select * into m from grids.moments where id = p_target_id;
    v_owner := m.user_id; v_moment := m.id;
    v_snapshot := private.moment_object(v_uid, m);
    if m.group_id is not null then
      v_snapshot := v_snapshot || jsonb_build_object('place', m.place, 'weather', m.weather, 'with_whom', m.with_whom,
        'entries', (select jsonb_agg(jsonb_build_object('id', e.id, 'body', e.body) order by e.created_at)
                    from grids.moment_entries e
                    where e.moment_id = m.id and private.can_view(v_uid, 'entry', e.id)));
    end if;
  else
    if not private.can_view(v_uid, 'profile', p_target_id) then
      perform private.fail('not_found', 'Nothing to report with that id.');
    end if;
    v_owner := p_target_id;
    select jsonb_build_object('username', p.username, 'display_name', p.display_name, 'bio', p.bio,
             'avatar_path', case when private.can_view(v_uid, 'avatar', p.id) then p.avatar_path end)
    into v_snapshot from social.profiles p where p.id = p_target_id;
  end if;
  if v_owner = v_uid then
    perform private.fail('not_allowed', 'You cannot report your own content.');
  end if;
  if exists (select 1 from social.reports where reporter_id = v_uid and target_type = p_target_type
             and target_id = p_target_id and status = 'open') then
    return jsonb_build_object('status', 'received');
  end if;
  if (select count(*) from social.reports where reporter_id = v_uid
      and created_at > summit.now() - interval '1 day') >= 20 then
    perform private.fail('rate_limited', 'You sent 20 reports today. Try again tomorrow.');
  end if;
  insert into social.reports (reporter_id, target_type, grid_id, moment_id, target_user_id, target_id, reason,
                              details, snapshot, created_at)
  values (v_uid, p_target_type, v_grid, v_moment, v_owner, p_target_id, p_reason, coalesce(p_details, ''),
          v_snapshot, summit.now())
  on conflict do nothing;
  return jsonb_build_object('status', 'received');
end
$$;

create or replace function private.log_action(p_action text, p_subject uuid, p_grid uuid, p_moment uuid,
  p_report uuid, p_note text) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  a social.moderation_actions;
begin
  if char_length(coalesce(p_note, '')) > 1000 then
    perform private.fail('note_too_long', 'A note is at most 1000 characters.');
  end if;
  insert into social.moderation_actions (admin_id, action, subject_user_id, grid_id, moment_id, report_id, note, created_at)
  values (private.require_admin(), p_action, p_subject, p_grid, p_moment, p_report, coalesce(p_note, ''), summit.now())
  returning * into a;
  if p_report is not null then
    update social.reports set status = case when p_action = 'dismiss_report' then 'dismissed' else 'actioned' end,
      resolved_at = summit.now(), resolved_by = a.admin_id
    where id = p_report and status = 'open';
  end if;
  return to_jsonb(a);
end
$$;

-- One moderation action as the admin site and the log show it: who acted (null
-- admin: the automatic rule), on whom, on which grid or moment.
create or replace function private.action_json(a social.moderation_actions) returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
    select to_jsonb(a) || jsonb_build_object(
      'automatic', a.admin_id is null and a.action = 'suspend_sharing' and a.note like 'automatic:%',
      'admin_username', (select username from social.profiles where id = a.admin_id),
      'subject_username', (select username from social.profiles where id = a.subject_user_id),
      'grid_title', (select title from grids.grids where id = a.grid_id),
      'moment_title', (select coalesce(nullif(title, ''), f.fields ->> 'title')
                       from grids.moments m left join private.moderation_snapshots f on f.moment_id = m.id
                       where m.id = a.moment_id))
  $$;

create or replace function social.admin_list_reports(p_status text default 'open', p_limit int default 50,
  p_before timestamptz default null) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  perform private.require_admin();
  return coalesce((select jsonb_agg(jsonb_build_object('id', r.id, 'target_type', r.target_type,
      'target_id', r.target_id, 'grid_id', r.grid_id, 'moment_id', r.moment_id,
      'target_user_id', r.target_user_id,
      'target_username', (select username from social.profiles where id = r.target_user_id),
      'reporter_id', r.reporter_id,
      'reporter_username', (select username from social.profiles where id = r.reporter_id),
      'reason', r.reason, 'details', r.details, 'status', r.status, 'created_at', r.created_at,
      'summary', coalesce(r.snapshot ->> 'title', r.snapshot ->> 'username'),
      'picture_path', case r.target_type when 'moment' then r.snapshot -> 'photos' -> 0 ->> 'storage_path'
                        when 'user' then (select avatar_path from social.profiles where id = r.target_user_id) end)
      order by r.created_at desc, r.id)
    from (select * from social.reports
          where (p_status is null or status = p_status) and (p_before is null or created_at < p_before)
          order by created_at desc, id limit least(greatest(coalesce(p_limit, 50), 1), 200)) r), '[]'::jsonb);
end
$$;

create or replace function social.admin_get_report(p_report_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  r social.reports;
begin
  perform private.require_admin();
  select * into r from social.reports where id = p_report_id;
  if not found then
    perform private.fail('not_found', 'No report with that id.');
  end if;
  return jsonb_build_object('report', to_jsonb(r),
    'reporter_username', (select username from social.profiles where id = r.reporter_id),
    'target_username', (select username from social.profiles where id = r.target_user_id),
    'target_suspended', r.target_user_id is not null and private.suspended(r.target_user_id),
    'resolved_by_username', (select username from social.profiles where id = r.resolved_by),
    'actions', coalesce((select jsonb_agg(private.action_json(a) order by a.created_at, a.id)
                         from social.moderation_actions a where a.report_id = r.id), '[]'::jsonb),
    'current', case r.target_type
    when 'grid' then (select private.card(g) || jsonb_build_object('hidden_at', g.hidden_at, 'shared', g.shared,
                        'deleted', g.deleted) from grids.grids g where g.id = r.grid_id)
    when 'moment' then (select jsonb_build_object('id', m.id, 'title', m.title, 'body', m.body,
                          'happened_on', m.happened_on, 'hidden_at', m.hidden_at, 'deleted', m.deleted,
                          'group_id', m.group_id,
                          'photos', (select jsonb_agg(p.storage_path order by p.sort) from grids.photos p
                                     where p.moment_id = m.id and not p.deleted))
                        from grids.moments m where m.id = r.moment_id)
    else (select jsonb_build_object('username', p.username, 'bio', p.bio, 'avatar_path', p.avatar_path)
          from social.profiles p where p.id = r.target_user_id) end);
end
$$;

create or replace function social.admin_hide_grid(p_grid_id uuid, p_report_id uuid default null,
  p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  g grids.grids;
begin
  perform private.require_admin();
  select * into g from grids.grids where id = p_grid_id for update;
  if not found then
    perform private.fail('not_found', 'No grid with that id.');
  end if;
  -- hidden_at alone keeps it out of the Atlas (private.in_atlas); the maker's shared
  -- stays, so unhiding puts it back where it was.
  update grids.grids set hidden_at = coalesce(hidden_at, summit.now()) where id = g.id;
  return private.log_action('hide_grid', g.owner_id, g.id, null, p_report_id, p_note);
end
$$;

create or replace function social.admin_unhide_grid(p_grid_id uuid, p_report_id uuid default null,
  p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  g grids.grids;
begin
  perform private.require_admin();
  select * into g from grids.grids where id = p_grid_id for update;
  if not found then
    perform private.fail('not_found', 'No grid with that id.');
  end if;
  update grids.grids set hidden_at = null where id = g.id;
  update social.moderation_actions set reversed_at = summit.now()
  where grid_id = g.id and action = 'hide_grid' and reversed_at is null;
  return private.log_action('unhide_grid', g.owner_id, g.id, null, p_report_id, p_note);
end
$$;

create or replace function social.admin_hide_moment(p_moment_id uuid, p_report_id uuid default null,
  p_subject_user_id uuid default null, p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  m grids.moments;
begin
  perform private.require_admin();
  select * into m from grids.moments where id = p_moment_id for update;
  if not found then
    perform private.fail('not_found', 'No moment with that id.');
  end if;
  if m.hidden_at is null then
    if m.group_id is not null then
      -- M5: blank the shared fields, keep them aside, unshare the parts
      insert into private.moderation_snapshots (moment_id, fields)
      values (m.id, jsonb_build_object('title', m.title, 'place', m.place, 'weather', m.weather, 'with_whom', m.with_whom))
      on conflict (moment_id) do update set fields = excluded.fields;
      update grids.moments set hidden_at = summit.now(), title = '', place = '', weather = '', with_whom = ''
      where id = m.id;
      insert into grids.group_unshares (group_id, object_type, object_id, author_id, for_user_id, reason)
      select e.group_id, 'entry', e.id, e.author_id, null::uuid, 'hidden'
      from grids.moment_entries e where e.moment_id = m.id and not e.deleted
      union all
      select p.group_id, 'photo', p.id, p.user_id, null::uuid, 'hidden'
      from grids.photos p where p.moment_id = m.id and not p.deleted;
    else
      update grids.moments set hidden_at = summit.now() where id = m.id;
    end if;
  end if;
  return private.log_action('hide_moment', coalesce(p_subject_user_id, m.user_id), null, m.id, p_report_id, p_note);
end
$$;

create or replace function social.admin_unhide_moment(p_moment_id uuid, p_report_id uuid default null,
  p_subject_user_id uuid default null, p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  m grids.moments;
  f jsonb;
begin
  perform private.require_admin();
  select * into m from grids.moments where id = p_moment_id for update;
  if not found then
    perform private.fail('not_found', 'No moment with that id.');
  end if;
  select fields into f from private.moderation_snapshots where moment_id = m.id;
  if f is not null and not m.deleted then
    update grids.moments set hidden_at = null, title = coalesce(f ->> 'title', ''), place = coalesce(f ->> 'place', ''),
      weather = coalesce(f ->> 'weather', ''), with_whom = coalesce(f ->> 'with_whom', '')
    where id = m.id;
  else
    update grids.moments set hidden_at = null where id = m.id;
  end if;
  delete from private.moderation_snapshots where moment_id = m.id;
  -- re-touch the parts so members pull them again
  update grids.moment_entries set server_updated_at = clock_timestamp() where moment_id = m.id and not deleted;
  update grids.photos set server_updated_at = clock_timestamp() where moment_id = m.id and not deleted;
  update social.moderation_actions set reversed_at = summit.now()
  where moment_id = m.id and action = 'hide_moment' and reversed_at is null;
  return private.log_action('unhide_moment', coalesce(p_subject_user_id, m.user_id), null, m.id, p_report_id, p_note);
end
$$;

create or replace function social.admin_suspend_sharing(p_user_id uuid, p_until timestamptz default null,
  p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.require_admin();
  if not exists (select 1 from social.profiles where id = p_user_id) then
    perform private.fail('not_found', 'No person with that id.');
  end if;
  if p_until is not null and p_until <= summit.now() then
    perform private.fail('until_invalid', 'p_until must be in the future (or null: until lifted).');
  end if;
  update social.profiles set sharing_suspended_at = summit.now(), sharing_suspended_until = p_until
  where id = p_user_id;
  return private.log_action('suspend_sharing', p_user_id, null, null, null, p_note);
end
$$;

create or replace function social.admin_lift_suspension(p_user_id uuid, p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  perform private.require_admin();
  if not exists (select 1 from social.profiles where id = p_user_id) then
    perform private.fail('not_found', 'No person with that id.');
  end if;
  update social.profiles set sharing_suspended_at = null, sharing_suspended_until = null where id = p_user_id;
  return private.log_action('lift_suspension', p_user_id, null, null, null, p_note);
end
$$;

create or replace function social.admin_dismiss_report(p_report_id uuid, p_note text default '') returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  r social.reports;
begin
  perform private.require_admin();
  select * into r from social.reports where id = p_report_id;
  if not found then
    perform private.fail('not_found', 'No report with that id.');
  end if;
  return private.log_action('dismiss_report', r.target_user_id, r.grid_id, r.moment_id, r.id, p_note);
end
$$;

create or replace function social.admin_user(p_user_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  perform private.require_admin();
  if not exists (select 1 from social.profiles where id = p_user_id) then
    perform private.fail('not_found', 'No person with that id.');
  end if;
  return jsonb_build_object(
    'profile', private.own_profile_json(p_user_id),
    'suspended', private.suspended(p_user_id),
    'hides_last_30_days', coalesce((select jsonb_agg(to_jsonb(a) order by a.created_at desc)
      from social.moderation_actions a where a.subject_user_id = p_user_id
        and a.action in ('hide_grid', 'hide_moment') and a.created_at > summit.now() - interval '30 days'), '[]'::jsonb),
    'reports_by', coalesce((select jsonb_agg(jsonb_build_object('id', r.id, 'target_type', r.target_type,
        'reason', r.reason, 'status', r.status, 'created_at', r.created_at) order by r.created_at desc)
      from social.reports r where r.reporter_id = p_user_id), '[]'::jsonb),
    'reports_about', coalesce((select jsonb_agg(jsonb_build_object('id', r.id, 'target_type', r.target_type,
        'reason', r.reason, 'status', r.status, 'created_at', r.created_at) order by r.created_at desc)
      from social.reports r where r.target_user_id = p_user_id), '[]'::jsonb),
    -- Every suspension and lift; an automatic one with the hides that made it fire
    -- (those unreversed then, in the 30 days before it).
    'suspensions', coalesce((select jsonb_agg(private.action_json(a) || jsonb_build_object('hides',
        case when (private.action_json(a) ->> 'automatic')::boolean then coalesce((
          select jsonb_agg(private.action_json(h) order by h.created_at, h.id)
          from social.moderation_actions h
          where h.subject_user_id = a.subject_user_id and h.action in ('hide_grid', 'hide_moment')
            and h.created_at <= a.created_at and h.created_at > a.created_at - interval '30 days'
            and (h.reversed_at is null or h.reversed_at > a.created_at)), '[]'::jsonb) end)
        order by a.created_at desc, a.id)
      from social.moderation_actions a
      where a.subject_user_id = p_user_id and a.action in ('suspend_sharing', 'lift_suspension')), '[]'::jsonb));
end
$$;

-- The moderation log, newest first: every action, by whom, on what; p_subject_user_id
-- narrows it to actions counting against one person.
create or replace function social.admin_moderation_log(p_limit int default 50, p_before timestamptz default null,
  p_subject_user_id uuid default null) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
begin
  perform private.require_admin();
  -- An automatic suspension shares its hide's instant; it came after, so it shows above.
  return coalesce((select jsonb_agg(private.action_json(a) order by a.created_at desc, a.admin_id is null desc, a.id)
    from (select * from social.moderation_actions
          where (p_before is null or created_at < p_before)
            and (p_subject_user_id is null or subject_user_id = p_subject_user_id)
          order by created_at desc, admin_id is null desc, id limit least(greatest(coalesce(p_limit, 50), 1), 200)) a), '[]'::jsonb);
end
$$;

-- M3: two unreversed hides (grids and/or moments) against one person in a
-- rolling 30 days suspend sharing, open-ended, recorded with admin_id null.
create or replace function private.auto_suspend() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  if new.action not in ('hide_grid', 'hide_moment') or new.subject_user_id is null then
    return null;
  end if;
  if private.suspended(new.subject_user_id) then
    return null;
  end if;
  if (select count(distinct coalesce(grid_id, moment_id)) from social.moderation_actions
      where subject_user_id = new.subject_user_id and action in ('hide_grid', 'hide_moment')
        and reversed_at is null and created_at > summit.now() - interval '30 days') >= 2 then
    update social.profiles set sharing_suspended_at = summit.now(), sharing_suspended_until = null
    where id = new.subject_user_id;
    insert into social.moderation_actions (admin_id, action, subject_user_id, note, created_at)
    values (null, 'suspend_sharing', new.subject_user_id, 'automatic: two hides in 30 days', summit.now());
  end if;
  return null;
end
$$;

drop trigger if exists auto_suspend on social.moderation_actions;
create trigger auto_suspend after insert on social.moderation_actions
  for each row execute function private.auto_suspend();

revoke all on function private.require_admin(), private.log_action(text, uuid, uuid, uuid, uuid, text),
  private.action_json(social.moderation_actions), private.auto_suspend() from public;
revoke all on function social.report(text, uuid, text, text), social.admin_list_reports(text, int, timestamptz),
  social.admin_get_report(uuid), social.admin_hide_grid(uuid, uuid, text), social.admin_unhide_grid(uuid, uuid, text),
  social.admin_hide_moment(uuid, uuid, uuid, text), social.admin_unhide_moment(uuid, uuid, uuid, text),
  social.admin_suspend_sharing(uuid, timestamptz, text), social.admin_lift_suspension(uuid, text),
  social.admin_dismiss_report(uuid, text), social.admin_user(uuid),
  social.admin_moderation_log(int, timestamptz, uuid) from public, anon;
grant execute on function social.report(text, uuid, text, text) to authenticated;
-- admins are signed-in people with a row in social.admins; the worker uses service_role
grant execute on function social.admin_list_reports(text, int, timestamptz),
  social.admin_get_report(uuid), social.admin_hide_grid(uuid, uuid, text), social.admin_unhide_grid(uuid, uuid, text),
  social.admin_hide_moment(uuid, uuid, uuid, text), social.admin_unhide_moment(uuid, uuid, uuid, text),
  social.admin_suspend_sharing(uuid, timestamptz, text), social.admin_lift_suspension(uuid, text),
  social.admin_dismiss_report(uuid, text), social.admin_user(uuid),
  social.admin_moderation_log(int, timestamptz, uuid) to authenticated, service_role;
