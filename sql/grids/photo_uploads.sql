-- Photo files (spec §1.4, §6.2): a photo's row is pushed first, then its bytes
-- go to photos/{user_id}/{photo_id}.webp; once they are stored the photo is
-- marked uploaded, as a server write (C7), so every phone that pulls the row
-- knows it can download the file.

-- The worker's call after it stores an object (service role), and the body of
-- grids.photo_uploaded. Marks a live photo whose object exists; idempotent.
create or replace function private.mark_photo_uploaded(p_photo_id uuid) returns boolean
  language plpgsql volatile security definer
  set search_path = ''
  as $$
begin
  update grids.photos p set uploaded_at = summit.now()
  where p.id = p_photo_id and not p.deleted and p.uploaded_at is null
    and exists (select 1 from storage.objects o where o.bucket_id = 'photos' and o.name = p.storage_path);
  return found;
end
$$;

-- A phone's call after uploading its own photo's file: the stored row as the
-- author may see it (null when it is no longer theirs to see).
create or replace function grids.photo_uploaded(p_photo_id uuid) returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := private.require_user();
  p grids.photos;
begin
  select * into p from grids.photos where id = p_photo_id;
  if not found or p.user_id is distinct from v_uid then
    perform private.fail('not_found', 'No photo of yours with that id: push its row (sync_push photos) first.');
  end if;
  if not p.deleted and not exists (select 1 from storage.objects o where o.bucket_id = 'photos' and o.name = p.storage_path) then
    perform private.fail('file_missing', format('Store the file at photos/%s first, then mark it uploaded.', p.storage_path));
  end if;
  perform private.mark_photo_uploaded(p_photo_id);
  select * into p from grids.photos where id = p_photo_id;
  if p.group_id is not null and not private.is_member(p.group_id, v_uid) then
    return null;
  end if;
  return to_jsonb(p);
end
$$;

revoke all on function private.mark_photo_uploaded(uuid), grids.photo_uploaded(uuid) from public, anon;
grant execute on function private.mark_photo_uploaded(uuid) to service_role;
grant execute on function grids.photo_uploaded(uuid) to authenticated;
