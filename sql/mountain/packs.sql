-- 3D packs (migration 0116): anyone reads which packs a resort has; the files
-- stay in the private bucket, fetched through the signed URL get-resort-3d-pack
-- hands out; only the operator adds them.
drop policy if exists resort_3d_packs_read on mountain.resort_3d_packs;
create policy resort_3d_packs_read on mountain.resort_3d_packs for select to anon, authenticated using (true);

-- The newest pack of a resort: {resort_id, sha256, byte_count, storage_name, created_at}, or null.
create or replace function mountain.newest_3d_pack(p_resort_id text) returns jsonb
  language sql stable
  set search_path = ''
  as $$
    select to_jsonb(p) from mountain.resort_3d_packs p where p.resort_id = p_resort_id
    order by p.created_at desc, p.sha256 limit 1
  $$;
grant execute on function mountain.newest_3d_pack(text) to anon, authenticated, service_role;
