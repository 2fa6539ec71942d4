-- Group grids (§5.4): start, invite, respond, leave, members; blocks inside
-- groups (V-B2, V-B5).

create or replace function private.require_member(p_group_id uuid) returns uuid
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  if not private.is_member(p_group_id, v_uid) then
    perform private.fail('not_found', 'No group of yours with that id.');
  end if;
  return v_uid;
end
$$;

-- The group and everything under it goes; its files are queued for purge.
create or replace function private.delete_group(p_group_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  update grids.group_invites set status = 'cancelled', responded_at = summit.now()
  where group_id = p_group_id and status = 'pending';
  insert into private.storage_deletions (bucket, name)
  select 'photos', p.storage_path from grids.photos p where p.group_id = p_group_id;
  delete from grids.user_grids where id = p_group_id;
end
$$;

create or replace function grids.start_group(p_user_grid_id uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  ug grids.user_grids;
begin
  select * into ug from grids.user_grids where id = p_user_grid_id for update;
  if not found or ug.deleted or ug.user_id is distinct from v_uid
     and not (ug.group_id is not null and private.is_member(ug.group_id, v_uid)) then
    perform private.fail('not_found', 'No grid on your shelf with that id.');
  end if;
  if ug.group_id is not null then
    perform private.fail('already_group', 'This grid is already a group grid.');
  end if;
  update grids.user_grids set group_id = id, audience = 'private', converted_at = summit.now()
  where id = ug.id;
  insert into grids.group_members (group_id, user_id, joined_at) values (ug.id, v_uid, summit.now())
  on conflict do nothing;
  update grids.user_squares set group_id = ug.id where user_grid_id = ug.id;
  -- each non-empty body becomes a Private entry of its author
  insert into grids.moment_entries (id, moment_id, author_id, group_id, body, audience, created_at, updated_at, deleted)
  select private.v5('entry:' || m.id::text || ':' || m.user_id::text), m.id, m.user_id, ug.id, m.body, 'private',
         m.created_at, clock_timestamp(), false
  from grids.moments m where m.user_grid_id = ug.id and m.body <> '' and not m.deleted
  on conflict (id) do nothing;
  update grids.moments set group_id = ug.id, audience = 'private', body = '' where user_grid_id = ug.id;
  update grids.photos p set group_id = ug.id, audience = 'private'
  from grids.moments m where m.user_grid_id = ug.id and p.moment_id = m.id;
  return jsonb_build_object('group_id', ug.id);
end
$$;

create or replace function grids.start_group_from_template(p_grid_id uuid, p_user_grid_id uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  if p_user_grid_id is null then
    perform private.fail('user_grid_id_missing', 'Pass the new user_grid id made on the phone.');
  end if;
  if not private.can_use_grid(v_uid, p_grid_id) then
    perform private.fail('not_found', 'No grid you can use with that id.');
  end if;
  if exists (select 1 from grids.user_grids where id = p_user_grid_id) then
    if not exists (select 1 from grids.user_grids where id = p_user_grid_id and user_id = v_uid
                   and grid_id = p_grid_id and not deleted) then
      perform private.fail('not_allowed', 'That user_grid id is taken.');
    end if;
  else
    insert into grids.user_grids (id, user_id, grid_id, audience, created_at, updated_at)
    values (p_user_grid_id, v_uid, p_grid_id, 'private', summit.now(), summit.now());
  end if;
  return grids.start_group(p_user_grid_id);
end
$$;

create or replace function grids.invite_to_group(p_group_id uuid, p_user_ids uuid[]) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_member(p_group_id);
  v_id uuid;
  v_out jsonb := '[]'::jsonb;
  v_res text;
begin
  if coalesce(cardinality(p_user_ids), 0) > 100 then
    perform private.fail('too_many', 'Invite at most 100 people at once.');
  end if;
  foreach v_id in array coalesce(p_user_ids, '{}') loop
    if private.is_member(p_group_id, v_id) then
      v_res := 'already_member';
    elsif exists (select 1 from social.blocks where blocker_id = v_uid and blocked_id = v_id) then
      v_res := 'blocked';
    elsif exists (select 1 from social.blocks where blocker_id = v_id and blocked_id = v_uid) then
      insert into grids.group_invites (group_id, inviter_id, invitee_id, suppressed, created_at)
      values (p_group_id, v_uid, v_id, true, summit.now()) on conflict do nothing;
      v_res := 'invited';
    elsif not private.is_friend(v_uid, v_id) then
      v_res := 'not_friends';
    else
      insert into grids.group_invites (group_id, inviter_id, invitee_id, created_at)
      values (p_group_id, v_uid, v_id, summit.now()) on conflict do nothing;
      v_res := 'invited';
    end if;
    v_out := v_out || jsonb_build_object('user_id', v_id, 'result', v_res);
  end loop;
  return v_out;
end
$$;

create or replace function grids.cancel_group_invite(p_invite_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  v_group uuid;
begin
  select group_id into v_group from grids.group_invites where id = p_invite_id and status = 'pending';
  if v_group is null or not private.is_member(v_group, v_uid) then
    perform private.fail('not_found', 'No pending invite in your groups with that id.');
  end if;
  update grids.group_invites set status = 'cancelled', responded_at = summit.now() where id = p_invite_id;
end
$$;

create or replace function grids.my_group_invites()
returns table (invite_id uuid, group_id uuid, title text, color text, size smallint, inviter_username text)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return query
    select i.id, i.group_id, g.title, g.color, g.size,
           case when not private.blocked_pair(v_uid, i.inviter_id) then p.username end
    from grids.group_invites i
    join grids.user_grids ug on ug.id = i.group_id
    join grids.grids g on g.id = ug.grid_id
    left join social.profiles p on p.id = i.inviter_id
    where i.invitee_id = v_uid and i.status = 'pending' and not i.suppressed
    order by i.created_at, i.id;
end
$$;

create or replace function grids.respond_group_invite(p_invite_id uuid, p_accept boolean) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  i grids.group_invites;
begin
  select * into i from grids.group_invites
  where id = p_invite_id and invitee_id = v_uid and not suppressed for update;
  if not found or i.status not in ('pending', 'accepted') then
    perform private.fail('invite_invalid', 'This invite is no longer open.');
  end if;
  if not coalesce(p_accept, false) then
    update grids.group_invites set status = 'declined', responded_at = summit.now() where id = i.id and status = 'pending';
    return null;
  end if;
  insert into grids.group_members (group_id, user_id, joined_at) values (i.group_id, v_uid, summit.now())
  on conflict do nothing;
  update grids.group_invites set status = 'accepted', responded_at = summit.now() where id = i.id and status = 'pending';
  return jsonb_build_object('group_id', i.group_id);
end
$$;

create or replace function grids.leave_group(p_group_id uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_member(p_group_id);
begin
  perform 1 from grids.user_grids where id = p_group_id for update;
  delete from grids.group_members where group_id = p_group_id and user_id = v_uid;
  if not exists (select 1 from grids.group_members where group_id = p_group_id) then
    perform private.delete_group(p_group_id);
    return jsonb_build_object('group_deleted', true);
  end if;
  return jsonb_build_object('group_deleted', false);
end
$$;

create or replace function grids.group_members(p_group_id uuid) returns jsonb
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_member(p_group_id);
begin
  return jsonb_build_object(
    'members', (select jsonb_agg(case when private.blocked_pair(v_uid, gm.user_id)
                  then jsonb_build_object('user_id', null, 'username', null, 'avatar_path', null,
                                          'joined_at', gm.joined_at, 'label', 'a member')
                  else jsonb_build_object('user_id', p.id, 'username', p.username,
                                          'avatar_path', p.avatar_path, 'joined_at', gm.joined_at) end
                  order by gm.joined_at, gm.user_id)
                from grids.group_members gm join social.profiles p on p.id = gm.user_id
                where gm.group_id = p_group_id),
    'invites', coalesce((select jsonb_agg(jsonb_build_object('invite_id', i.id,
                  'username', case when private.blocked_pair(v_uid, i.invitee_id) then null else p.username end)
                  order by i.created_at, i.id)
                from grids.group_invites i join social.profiles p on p.id = i.invitee_id
                where i.group_id = p_group_id and i.status = 'pending'), '[]'::jsonb));
end
$$;

create or replace function grids.my_groups() returns table (group_id uuid, grid_id uuid, joined_at timestamptz)
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
begin
  return query
    select gm.group_id, ug.grid_id, gm.joined_at
    from grids.group_members gm join grids.user_grids ug on ug.id = gm.group_id
    where gm.user_id = v_uid
    order by gm.joined_at, gm.group_id;
end
$$;

-- V-B2 / V-B5: blocking inside groups.
create or replace function private.after_block() returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  if tg_op = 'INSERT' then
    update grids.group_invites set status = 'cancelled', responded_at = summit.now()
    where inviter_id = new.blocker_id and invitee_id = new.blocked_id and status = 'pending';
    update grids.group_invites set suppressed = true
    where inviter_id = new.blocked_id and invitee_id = new.blocker_id and status = 'pending';
    -- each other's live parts in shared groups leave each other's phones
    insert into grids.group_unshares (group_id, object_type, object_id, author_id, for_user_id, reason)
    select e.group_id, 'entry', e.id, e.author_id,
           case when e.author_id = new.blocker_id then new.blocked_id else new.blocker_id end, 'blocked'
    from grids.moment_entries e
    where not e.deleted and e.author_id in (new.blocker_id, new.blocked_id)
      and private.is_member(e.group_id, new.blocker_id) and private.is_member(e.group_id, new.blocked_id)
    union all
    select p.group_id, 'photo', p.id, p.user_id,
           case when p.user_id = new.blocker_id then new.blocked_id else new.blocker_id end, 'blocked'
    from grids.photos p
    where not p.deleted and p.group_id is not null and p.user_id in (new.blocker_id, new.blocked_id)
      and private.is_member(p.group_id, new.blocker_id) and private.is_member(p.group_id, new.blocked_id);
  else
    -- unblocking: re-touch the parts so phones pull them again
    update grids.moment_entries e set server_updated_at = clock_timestamp()
    from grids.group_unshares u
    where u.reason = 'blocked' and u.object_type = 'entry' and u.object_id = e.id
      and ((u.author_id = old.blocker_id and u.for_user_id = old.blocked_id)
           or (u.author_id = old.blocked_id and u.for_user_id = old.blocker_id));
    update grids.photos p set server_updated_at = clock_timestamp()
    from grids.group_unshares u
    where u.reason = 'blocked' and u.object_type = 'photo' and u.object_id = p.id
      and ((u.author_id = old.blocker_id and u.for_user_id = old.blocked_id)
           or (u.author_id = old.blocked_id and u.for_user_id = old.blocker_id));
  end if;
  return null;
end
$$;

drop trigger if exists after_block on social.blocks;
create trigger after_block after insert or delete on social.blocks
  for each row execute function private.after_block();

revoke all on function private.require_member(uuid), private.delete_group(uuid), private.after_block() from public;
revoke all on function grids.start_group(uuid), grids.start_group_from_template(uuid, uuid),
  grids.invite_to_group(uuid, uuid[]), grids.cancel_group_invite(uuid), grids.my_group_invites(),
  grids.respond_group_invite(uuid, boolean), grids.leave_group(uuid), grids.group_members(uuid),
  grids.my_groups() from public, anon;
grant execute on function grids.start_group(uuid), grids.start_group_from_template(uuid, uuid),
  grids.invite_to_group(uuid, uuid[]), grids.cancel_group_invite(uuid), grids.my_group_invites(),
  grids.respond_group_invite(uuid, boolean), grids.leave_group(uuid), grids.group_members(uuid),
  grids.my_groups() to authenticated, service_role;
