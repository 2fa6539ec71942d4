-- The sync entry points (§6.3, §6.7; the push, §6.2, is in 0047). SECURITY INVOKER: row level
-- security applies to every row pushed or pulled; the C-rules are triggers.

-- Client-writable columns per table (§6.1), besides id.
create or replace function private.sync_columns(p_table text) returns text[]
  language sql immutable
  set search_path = ''
  as $$
    select case p_table
      when 'profile_interests' then array['interest', 'deleted']
      when 'user_grids' then array['grid_id', 'audience', 'deleted']
      when 'user_squares' then array['user_grid_id', 'position', 'revealed_at', 'freebie_at']
      when 'moments' then array['user_square_id', 'title', 'body', 'happened_on', 'place', 'weather',
                                'with_whom', 'audience', 'deleted']
      when 'moment_entries' then array['moment_id', 'body', 'audience', 'deleted']
      when 'photos' then array['moment_id', 'audience', 'sort', 'width', 'height', 'byte_size', 'deleted']
    end || array['created_at', 'updated_at', 'device_id']
  $$;

-- Server-owned columns: accepted in a payload and ignored (C5).
create or replace function private.server_columns() returns text[]
  language sql immutable
  set search_path = ''
  as $$
    select array['server_updated_at', 'group_id', 'converted_at', 'hidden_at', 'merged_into', 'uploaded_at',
                 'storage_path', 'user_id', 'author_id', 'state', 'freebie', 'kind', 'owner_id', 'shared_at']
  $$;

-- Keyset pull: rows with (server_updated_at, id) > (p_since, p_after_id),
-- tombstones included, under RLS.
create or replace function grids.sync_pull(p_table text, p_since timestamptz default null,
  p_after_id uuid default null, p_limit int default 500) returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_rows jsonb;
  v_limit int := least(greatest(coalesce(p_limit, 500), 1), 500);
  v_since timestamptz := coalesce(p_since, '-infinity');
  v_after uuid := coalesce(p_after_id, '00000000-0000-0000-0000-000000000000');
  v_src text;
begin
  perform private.require_signed_in();
  v_src := case p_table
    when 'grids' then $q$select to_jsonb(t) - 'search_doc' || jsonb_build_object('squares',
                          (select coalesce(jsonb_agg(s.prompt order by s.position), '[]'::jsonb)
                           from grids.grid_squares s where s.grid_id = t.id)) as j, t.server_updated_at, t.id
                        from grids.grids t$q$
    when 'profiles' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from social.profiles t$q$
    when 'profile_interests' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.profile_interests t$q$
    when 'user_grids' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.user_grids t$q$
    when 'user_squares' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.user_squares t$q$
    when 'moments' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.moments t$q$
    when 'moment_entries' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.moment_entries t$q$
    when 'photos' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.photos t$q$
    when 'group_unshares' then $q$select to_jsonb(t) as j, t.server_updated_at, t.id from grids.group_unshares t$q$
  end;
  if v_src is null then
    perform private.fail('table_invalid', 'Pull one of grids, profiles, profile_interests, user_grids, user_squares, moments, moment_entries, photos, group_unshares.');
  end if;
  execute format($q$select coalesce(jsonb_agg(x.j order by x.server_updated_at, x.id), '[]'::jsonb) from (
      %s where (t.server_updated_at, t.id) > ($1, $2) order by t.server_updated_at, t.id limit $3) x$q$, v_src)
    into v_rows using v_since, v_after, v_limit;
  return jsonb_build_object('rows', v_rows,
    'next', case when jsonb_array_length(v_rows) = v_limit then
               jsonb_build_object('since', v_rows -> -1 -> 'server_updated_at', 'after_id', v_rows -> -1 -> 'id') end);
end
$$;

-- A group fetched whole: its live rows of one table, ordered by id.
create or replace function grids.sync_pull_group(p_group_id uuid, p_table text, p_after_id uuid default null,
  p_limit int default 500) returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_rows jsonb;
  v_limit int := least(greatest(coalesce(p_limit, 500), 1), 500);
  v_after uuid := coalesce(p_after_id, '00000000-0000-0000-0000-000000000000');
  v_src text;
begin
  perform private.require_signed_in();
  if not private.is_member(p_group_id, auth.uid()) then
    perform private.fail('not_found', 'No group of yours with that id.');
  end if;
  v_src := case p_table
    when 'grids' then $q$select to_jsonb(t) - 'search_doc' || jsonb_build_object('squares',
                          (select coalesce(jsonb_agg(s.prompt order by s.position), '[]'::jsonb)
                           from grids.grid_squares s where s.grid_id = t.id)) as j, t.id
                        from grids.grids t where t.id = (select grid_id from grids.user_grids where id = $4)$q$
    when 'user_grids' then $q$select to_jsonb(t) as j, t.id from grids.user_grids t where t.id = $4$q$
    when 'user_squares' then $q$select to_jsonb(t) as j, t.id from grids.user_squares t where t.group_id = $4 and not t.deleted$q$
    when 'moments' then $q$select to_jsonb(t) as j, t.id from grids.moments t where t.group_id = $4 and not t.deleted$q$
    when 'moment_entries' then $q$select to_jsonb(t) as j, t.id from grids.moment_entries t where t.group_id = $4 and not t.deleted$q$
    when 'photos' then $q$select to_jsonb(t) as j, t.id from grids.photos t where t.group_id = $4 and not t.deleted$q$
  end;
  if v_src is null then
    perform private.fail('table_invalid', 'Pull one of grids, user_grids, user_squares, moments, moment_entries, photos.');
  end if;
  execute format($q$select coalesce(jsonb_agg(x.j order by x.id), '[]'::jsonb) from (
      select * from (%s) y where y.id > $1 order by y.id limit $2) x$q$, v_src)
    into v_rows using v_after, v_limit, null::int, p_group_id;
  return jsonb_build_object('rows', v_rows,
    'next', case when jsonb_array_length(v_rows) = v_limit then jsonb_build_object('after_id', v_rows -> -1 -> 'id') end);
end
$$;

revoke all on function private.sync_columns(text), private.server_columns() from public;
grant execute on function private.sync_columns(text), private.server_columns() to authenticated;
revoke all on function grids.sync_pull(text, timestamptz, uuid, int), grids.sync_pull_group(uuid, text, uuid, int)
  from public, anon;
grant execute on function grids.sync_pull(text, timestamptz, uuid, int), grids.sync_pull_group(uuid, text, uuid, int)
  to authenticated;
