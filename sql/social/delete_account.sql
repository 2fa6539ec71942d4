-- Account deletion (§8). One transaction, as the caller, idempotent: the rows,
-- the sessions and the auth.users row go at once; the files are queued for the
-- worker's storage sweep (sql/grids/storage_sweep.sql).

create or replace function private.delete_account(p_uid uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_group uuid;
  v_queued int := 0;
  v_n int;
begin
  -- Every session ends now, not when the worker removes the account: a refresh
  -- token or an access token's session must not outlive the deletion.
  update auth.refresh_sessions set revoked_at = now(), revoked_reason = 'account deleted'
  where user_id = p_uid and revoked_at is null;
  if p_uid is null or not exists (select 1 from social.profiles where id = p_uid) then
    return jsonb_build_object('status', 'already_deleted');
  end if;
  perform 1 from social.profiles where id = p_uid for update;

  -- 1. groups: shared parts stay with "a former member"; private parts go
  for v_group in select group_id from grids.group_members where user_id = p_uid loop
    with t as (delete from grids.photos
               where group_id = v_group and user_id = p_uid and (audience = 'private' or deleted)
               returning storage_path)
    insert into private.storage_deletions (bucket, name) select 'photos', storage_path from t;
    get diagnostics v_n = row_count;
    v_queued := v_queued + v_n;
    delete from grids.moment_entries where group_id = v_group and author_id = p_uid and (audience = 'private' or deleted);
    update grids.moment_entries set author_id = null where group_id = v_group and author_id = p_uid;
    -- shared files move to the group's folder
    update storage.objects o set name = 'groups/' || v_group::text || '/' || p.id::text || '.webp', owner = null,
      updated_at = now()
    from grids.photos p
    where p.group_id = v_group and p.user_id = p_uid and o.bucket_id = 'photos' and o.name = p.storage_path;
    update grids.photos set user_id = null, storage_path = 'groups/' || v_group::text || '/' || id::text || '.webp'
    where group_id = v_group and user_id = p_uid;
    update grids.moments set user_id = null where group_id = v_group and user_id = p_uid;
    update grids.user_squares set user_id = null where group_id = v_group and user_id = p_uid;
    update grids.user_grids set user_id = null where id = v_group and user_id = p_uid;
    delete from grids.group_members where group_id = v_group and user_id = p_uid;
    if not exists (select 1 from grids.group_members where group_id = v_group) then
      perform private.delete_group(v_group);
    end if;
  end loop;
  -- group grids the person created but had already left
  update grids.user_squares set user_id = null
  where user_id = p_uid and group_id is not null;
  update grids.user_grids set user_id = null where user_id = p_uid and group_id is not null;

  -- 2. solo: shelves, squares, moments, photos; their files and the avatar
  with t as (delete from grids.photos p using grids.moments m
             where p.moment_id = m.id and m.group_id is null and m.user_id = p_uid
             returning p.storage_path)
  insert into private.storage_deletions (bucket, name) select 'photos', storage_path from t;
  get diagnostics v_n = row_count;
  v_queued := v_queued + v_n;
  delete from grids.user_grids where user_id = p_uid and group_id is null;
  insert into private.storage_deletions (bucket, name)
  select bucket_id, name from storage.objects
  where bucket_id in ('photos', 'avatars', 'powdermeet-avatars') and name like p_uid::text || '/%';
  get diagnostics v_n = row_count;
  v_queued := v_queued + v_n;

  -- 3. made grids: kept unowned and unshared while anyone uses them
  update grids.grids g set shared = false, owner_id = null
  where g.owner_id = p_uid and exists (select 1 from grids.user_grids ug where ug.grid_id = g.id);
  perform set_config('summit.grid_delete', 'on', true);
  delete from grids.grids g where g.owner_id = p_uid;
  perform set_config('summit.grid_delete', '', true);

  -- 4. the social graph and the rest (reports and moderation history keep
  -- their rows with the person's id cleared by the foreign keys)
  delete from social.friendships where user_a = p_uid or user_b = p_uid;
  delete from social.friend_requests where from_id = p_uid or to_id = p_uid;
  delete from social.blocks where blocker_id = p_uid or blocked_id = p_uid;
  delete from social.friend_codes where owner_id = p_uid;
  delete from grids.group_invites where invitee_id = p_uid or inviter_id = p_uid;
  delete from grids.profile_interests where user_id = p_uid;
  delete from social.admins where user_id = p_uid;

  -- 5. the profile
  delete from social.profiles where id = p_uid;
  return jsonb_build_object('status', 'deleted', 'objects_queued', v_queued);
end
$$;

create or replace function social.delete_account() returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_signed_in();
  v_answer jsonb := private.delete_account(v_uid);
begin
  -- The account itself, as the seed's delete-account does: nobody signs in as it again.
  delete from auth.users where id = v_uid;
  return v_answer;
end
$$;

revoke all on function private.delete_account(uuid) from public;
revoke all on function social.delete_account() from public, anon;
grant execute on function social.delete_account() to authenticated, service_role;
