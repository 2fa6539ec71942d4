-- The storage sweep (worker job storage-sweep): the files of deleted photos,
-- deleted moments and deleted accounts, queued in private.storage_deletions by
-- the rows' own triggers and by delete_account, removed once each.
--
-- A file a live row still points at is never removed (a photo row that is not
-- a tombstone, a profile's avatar): the entry is closed as in_use. A failure
-- leaves the entry open with its error and a back-off (10 s doubling, at most
-- an hour); the next sweep tries again. Entries are claimed with SKIP LOCKED,
-- so two workers never take the same one, and closed in the transaction that
-- removes the file, so each is done exactly once.

create or replace function private.storage_object_in_use(p_bucket text, p_name text) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select case p_bucket
      when 'photos' then exists (select 1 from grids.photos p where p.storage_path = p_name and not p.deleted)
      when 'avatars' then exists (select 1 from social.profiles p where p.avatar_path = p_name)
      else false
    end
  $$;

create or replace function private.sweep_storage_deletions(p_limit integer default 200) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_entry record;
  v_removed int := 0;
  v_absent int := 0;
  v_in_use int := 0;
  v_failed int := 0;
  v_count int;
begin
  if auth.role() <> 'service_role' then
    perform private.fail('not_allowed', 'The storage sweep is the worker''s: summit worker runs it.');
  end if;
  for v_entry in
    select d.id, d.bucket, d.name, d.attempts from private.storage_deletions d
    where d.done_at is null and (d.next_attempt_at is null or d.next_attempt_at <= now())
    order by d.requested_at, d.id
    limit greatest(1, least(coalesce(p_limit, 200), 1000))
    for update skip locked
  loop
    -- One file may be queued more than once (a moment's photo by the moment and by the photo):
    -- the first entry's outcome (or failure) answers for them all.
    continue when not exists (select 1 from private.storage_deletions where id = v_entry.id and done_at is null
                                and (next_attempt_at is null or next_attempt_at <= now()));
    begin
      if private.storage_object_in_use(v_entry.bucket, v_entry.name) then
        update private.storage_deletions set done_at = now(), outcome = 'in_use'
        where bucket = v_entry.bucket and name = v_entry.name and done_at is null;
        v_in_use := v_in_use + 1;
      else
        delete from storage.objects o where o.bucket_id = v_entry.bucket and o.name = v_entry.name;
        get diagnostics v_count = row_count;
        update private.storage_deletions set done_at = now(), outcome = case when v_count > 0 then 'removed' else 'absent' end,
          attempts = attempts + 1, last_error = null
        where bucket = v_entry.bucket and name = v_entry.name and done_at is null;
        if v_count > 0 then v_removed := v_removed + 1; else v_absent := v_absent + 1; end if;
      end if;
    exception when others then
      update private.storage_deletions set attempts = attempts + 1, last_error = sqlerrm,
        next_attempt_at = now() + least(interval '1 hour', interval '10 seconds' * power(2, least(attempts, 12)))
      where bucket = v_entry.bucket and name = v_entry.name and done_at is null;
      v_failed := v_failed + 1;
    end;
  end loop;
  return jsonb_build_object('removed', v_removed, 'absent', v_absent, 'in_use', v_in_use, 'failed', v_failed,
    'pending', (select count(*) from private.storage_deletions where done_at is null));
end
$$;

revoke all on function private.storage_object_in_use(text, text), private.sweep_storage_deletions(integer) from public;
grant execute on function private.sweep_storage_deletions(integer) to service_role;
