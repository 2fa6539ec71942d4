-- Row level security of AirStrive (§5.8) and of the photo/avatar objects (§1.4).
-- Owner rules cover solo rows only (group_id is null); in group rows
-- membership alone decides. Other people's solo content is never readable
-- here: the RPCs serve it through can_view(). Every policy calls
-- (select auth.uid()) or a set function computed once per query.

-- The caller's grids in use: own solo shelf rows and groups it belongs to.
create or replace function private.my_grid_ids() returns setof uuid
  language sql stable security definer
  set search_path = ''
  as $$
    select ug.grid_id from grids.user_grids ug
    where not ug.deleted and ((ug.group_id is null and ug.user_id = auth.uid())
       or ug.group_id in (select group_id from grids.group_members where user_id = auth.uid()))
  $$;
revoke all on function private.my_grid_ids() from public;
grant execute on function private.my_grid_ids() to authenticated;

-- reference tables
do $$
declare
  t text;
begin
  foreach t in array array['grid_sizes', 'themes', 'interests', 'interest_themes'] loop
    execute format('drop policy if exists reference_read on grids.%I', t);
    execute format('create policy reference_read on grids.%I for select to anon, authenticated using (true)', t);
  end loop;
end
$$;

-- grids (templates): owner, starter/curated, or in use by the caller
drop policy if exists grids_read on grids.grids;
create policy grids_read on grids.grids for select to authenticated
  using (owner_id = (select auth.uid())
         or kind in ('starter', 'curated')
         or id in (select private.my_grid_ids()));

drop policy if exists grid_squares_read on grids.grid_squares;
create policy grid_squares_read on grids.grid_squares for select to authenticated
  using (exists (select 1 from grids.grids g where g.id = grid_id));

-- user_grids
drop policy if exists user_grids_read on grids.user_grids;
create policy user_grids_read on grids.user_grids for select to authenticated
  using ((group_id is null and user_id = (select auth.uid()))
         or group_id in (select private.my_group_ids()));
drop policy if exists user_grids_insert on grids.user_grids;
create policy user_grids_insert on grids.user_grids for insert to authenticated
  with check (group_id is null and user_id = (select auth.uid()) and private.can_use_grid(grid_id));
drop policy if exists user_grids_update on grids.user_grids;
create policy user_grids_update on grids.user_grids for update to authenticated
  using ((group_id is null and user_id = (select auth.uid()))
         or group_id in (select private.my_group_ids()))
  with check ((group_id is null and user_id = (select auth.uid()))
              or group_id in (select private.my_group_ids()));

-- user_squares and moments: parent readable/writable (user_id, group_id are
-- copied from the parent by trigger)
do $$
declare
  t text;
begin
  foreach t in array array['user_squares', 'moments'] loop
    execute format('drop policy if exists %I on grids.%I', t || '_read', t);
    execute format($p$create policy %I on grids.%I for select to authenticated
      using ((group_id is null and user_id = (select auth.uid()))
             or group_id in (select private.my_group_ids()))$p$, t || '_read', t);
    execute format('drop policy if exists %I on grids.%I', t || '_insert', t);
    execute format($p$create policy %I on grids.%I for insert to authenticated
      with check ((group_id is null and user_id = (select auth.uid()))
                  or group_id in (select private.my_group_ids()))$p$, t || '_insert', t);
    execute format('drop policy if exists %I on grids.%I', t || '_update', t);
    execute format($p$create policy %I on grids.%I for update to authenticated
      using ((group_id is null and user_id = (select auth.uid()))
             or group_id in (select private.my_group_ids()))
      with check ((group_id is null and user_id = (select auth.uid()))
                  or group_id in (select private.my_group_ids()))$p$, t || '_update', t);
  end loop;
end
$$;

-- moment_entries: members; others' Private entries, a blocked pair's entries
-- and the parts of a hidden moment stay with their author
drop policy if exists moment_entries_read on grids.moment_entries;
create policy moment_entries_read on grids.moment_entries for select to authenticated
  using (group_id in (select private.my_group_ids())
         and (author_id = (select auth.uid())
              or (audience = 'group'
                  and coalesce(author_id not in (select private.my_blocked_pairs()), true)
                  and not exists (select 1 from grids.moments m
                                  where m.id = moment_id and m.hidden_at is not null))));
drop policy if exists moment_entries_insert on grids.moment_entries;
create policy moment_entries_insert on grids.moment_entries for insert to authenticated
  with check (author_id = (select auth.uid()) and group_id in (select private.my_group_ids()));
drop policy if exists moment_entries_update on grids.moment_entries;
create policy moment_entries_update on grids.moment_entries for update to authenticated
  using (author_id = (select auth.uid()) and group_id in (select private.my_group_ids()))
  with check (author_id = (select auth.uid()) and group_id in (select private.my_group_ids()));

-- photos
drop policy if exists photos_read on grids.photos;
create policy photos_read on grids.photos for select to authenticated
  using ((group_id is null and user_id = (select auth.uid()))
         or (group_id in (select private.my_group_ids())
             and (user_id = (select auth.uid())
                  or (audience = 'group'
                      and coalesce(user_id not in (select private.my_blocked_pairs()), true)
                      and not exists (select 1 from grids.moments m
                                      where m.id = moment_id and m.hidden_at is not null)))));
drop policy if exists photos_insert on grids.photos;
create policy photos_insert on grids.photos for insert to authenticated
  with check (user_id = (select auth.uid())
              and (group_id is null or group_id in (select private.my_group_ids())));
drop policy if exists photos_update on grids.photos;
create policy photos_update on grids.photos for update to authenticated
  using (user_id = (select auth.uid())
         and (group_id is null or group_id in (select private.my_group_ids())))
  with check (user_id = (select auth.uid())
              and (group_id is null or group_id in (select private.my_group_ids())));

-- profile_interests
drop policy if exists profile_interests_own on grids.profile_interests;
create policy profile_interests_own on grids.profile_interests for all to authenticated
  using (user_id = (select auth.uid())) with check (user_id = (select auth.uid()));

-- group_unshares: members; a targeted row only for its target; never the author's own
drop policy if exists group_unshares_read on grids.group_unshares;
create policy group_unshares_read on grids.group_unshares for select to authenticated
  using (group_id in (select private.my_group_ids())
         and (for_user_id = (select auth.uid())
              or (for_user_id is null and author_id is distinct from (select auth.uid()))));

-- group_members, group_invites, and the private tables: RPC only (RLS on, no
-- policy, no grant).

-- ------------------------------------------------------------ storage

-- May the caller read this photo object?
create or replace function private.can_read_photo_object(p_name text) returns boolean
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_photo uuid;
begin
  if v_uid is null then return false; end if;
  select id into v_photo from grids.photos where storage_path = p_name and not deleted;
  if v_photo is not null then
    return private.can_view(v_uid, 'photo', v_photo)
        or (exists (select 1 from social.admins where user_id = v_uid)
            and exists (select 1 from grids.photos p join social.reports r on r.moment_id = p.moment_id
                        where p.id = v_photo and r.status = 'open'));
  end if;
  -- uploaded before its row synced: only under the uploader's own folder
  return split_part(p_name, '/', 1) = v_uid::text
     and not exists (select 1 from grids.photos where storage_path = p_name);
end
$$;

create or replace function private.can_read_avatar_object(p_name text) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select auth.uid() is not null and (
      split_part(p_name, '/', 1) = auth.uid()::text
      or exists (select 1 from social.profiles p
                 where p.avatar_path = p_name and private.can_view(auth.uid(), 'avatar', p.id))
      -- an admin sees the picture of someone reported, while the report is open
      or (exists (select 1 from social.admins where user_id = auth.uid())
          and exists (select 1 from social.profiles p join social.reports r on r.target_user_id = p.id
                      where p.avatar_path = p_name and r.target_type = 'user' and r.status = 'open')))
  $$;
revoke all on function private.can_read_photo_object(text), private.can_read_avatar_object(text) from public;
grant execute on function private.can_read_photo_object(text), private.can_read_avatar_object(text)
  to authenticated;

drop policy if exists objects_photos_read on storage.objects;
create policy objects_photos_read on storage.objects for select to authenticated
  using (bucket_id = 'photos' and private.can_read_photo_object(name));
drop policy if exists objects_avatars_read on storage.objects;
create policy objects_avatars_read on storage.objects for select to authenticated
  using (bucket_id = 'avatars' and private.can_read_avatar_object(name));
drop policy if exists objects_own_insert on storage.objects;
create policy objects_own_insert on storage.objects for insert to authenticated
  with check (bucket_id in ('photos', 'avatars')
              and (storage.foldername(name))[1] = (select auth.uid())::text
              and name ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}\.webp$');
drop policy if exists objects_own_update on storage.objects;
create policy objects_own_update on storage.objects for update to authenticated
  using (bucket_id in ('photos', 'avatars') and (storage.foldername(name))[1] = (select auth.uid())::text)
  with check (bucket_id in ('photos', 'avatars')
              and (storage.foldername(name))[1] = (select auth.uid())::text
              and name ~ '^[0-9a-f-]{36}/[0-9a-f-]{36}\.webp$');
drop policy if exists objects_own_delete on storage.objects;
create policy objects_own_delete on storage.objects for delete to authenticated
  using (bucket_id in ('photos', 'avatars') and (storage.foldername(name))[1] = (select auth.uid())::text);
drop policy if exists buckets_read on storage.buckets;
create policy buckets_read on storage.buckets for select to anon, authenticated using (true);
