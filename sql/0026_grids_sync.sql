-- The sync entry points (§6.2, §6.3, §6.7). SECURITY INVOKER: row level
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

-- Does a row with this id exist (visible or not)? Only the answer, never the row.
create or replace function private.sync_row_exists(p_table text, p_id uuid) returns boolean
  language plpgsql stable security definer
  set search_path = ''
  as $$
declare
  v boolean;
begin
  if p_table not in ('profile_interests', 'user_grids', 'user_squares', 'moments', 'moment_entries', 'photos') then
    return false;
  end if;
  execute format('select exists (select 1 from grids.%I where id = $1)', p_table) into v using p_id;
  return v;
end
$$;

create or replace function grids.sync_push(p_table text, p_rows jsonb) returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_cols text[];
  v_row jsonb;
  v_id uuid;
  v_keys text[];
  v_use text[];
  v_bad text;
  v_sql text;
  v_ret uuid;
  v_out jsonb := '[]'::jsonb;
  v_outcome text;
  v_code text;
  v_stored jsonb;
  v_corr text;
  v_visible boolean;
begin
  perform private.require_signed_in();
  v_cols := private.sync_columns(p_table);
  if v_cols is null or array_length(v_cols, 1) = 3 then
    perform private.fail('table_invalid', 'Push one of profile_interests, user_grids, user_squares, moments, moment_entries, photos (grids go through save_grid).');
  end if;
  if jsonb_typeof(p_rows) is distinct from 'array' then
    perform private.fail('rows_invalid', 'p_rows is a JSON array of row objects.');
  end if;
  if jsonb_array_length(p_rows) > 200 then
    perform private.fail('batch_too_large', 'Push at most 200 rows per call.');
  end if;
  for v_row in select value from jsonb_array_elements(p_rows) loop
    v_outcome := null; v_code := null; v_stored := null; v_id := null;
    perform set_config('summit.corrected', '', true);
    begin
      if jsonb_typeof(v_row) is distinct from 'object' then
        perform private.fail('row_invalid', 'Each row is a JSON object.');
      end if;
      begin
        v_id := (v_row ->> 'id')::uuid;
      exception when others then
        perform private.fail('id_invalid', 'id must be a uuid.');
      end;
      if v_id is null then
        perform private.fail('id_invalid', 'Each row needs its id.');
      end if;
      select array_agg(k) into v_keys from jsonb_object_keys(v_row) k where k <> 'id';
      select min(k) into v_bad from unnest(coalesce(v_keys, '{}')) k
      where not (k = any (v_cols)) and not (k = any (private.server_columns()));
      if v_bad is not null then
        perform private.fail('unknown_column', format('%s.%s cannot be pushed.', p_table, v_bad));
      end if;
      select coalesce(array_agg(k order by k), '{}') into v_use from unnest(coalesce(v_keys, '{}')) k where k = any (v_cols);
      if private.sync_row_exists(p_table, v_id) then
        -- parent keys and positions are fixed once inserted
        v_use := array(select c from unnest(v_use) c
                       where c <> all (array['user_grid_id', 'position', 'grid_id', 'user_square_id', 'interest']));
        if cardinality(v_use) = 0 then
          v_ret := null;
        else
          v_sql := format('update grids.%I t set %s from jsonb_populate_record(null::grids.%I, $1) r where t.id = $2 returning t.id',
            p_table, (select string_agg(format('%I = r.%I', c, c), ', ') from unnest(v_use) c), p_table);
          execute v_sql into v_ret using v_row, v_id;
        end if;
        execute format('select exists (select 1 from grids.%I where id = $1)', p_table) into v_visible using v_id;
        if not v_visible then
          perform private.fail('not_allowed', 'This row belongs to someone else.');
        end if;
      else
        v_sql := format('insert into grids.%I (id%s) select $2%s from jsonb_populate_record(null::grids.%I, $1) r returning id',
          p_table, (select coalesce(string_agg(', ' || quote_ident(c), ''), '') from unnest(v_use) c),
          (select coalesce(string_agg(', r.' || quote_ident(c), ''), '') from unnest(v_use) c), p_table);
        execute v_sql into v_ret using v_row, v_id;
      end if;
      v_corr := current_setting('summit.corrected', true);
      if v_ret is null then
        v_outcome := 'ignored';
      elsif coalesce(v_corr, '') like '%' || v_id::text || '%' then
        v_outcome := 'corrected';
      else
        v_outcome := 'applied';
      end if;
      if coalesce(v_corr, '') like '%' || v_id::text || '%' then
        v_code := (select string_agg(split_part(x, ':', 2), ',') from unnest(string_to_array(v_corr, ',')) x
                   where x like v_id::text || ':%');
      end if;
    exception when others then
      v_outcome := 'error';
      v_code := case when sqlstate = 'P0001' then sqlerrm else sqlstate end;
    end;
    if v_id is not null then
      begin
        execute format('select to_jsonb(t) from grids.%I t where id = $1', p_table) into v_stored using v_id;
      exception when others then
        v_stored := null;
      end;
    end if;
    v_out := v_out || jsonb_build_object('id', v_id, 'outcome', v_outcome, 'code', v_code, 'row', v_stored);
  end loop;
  return v_out;
end
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

revoke all on function private.sync_columns(text), private.server_columns(), private.sync_row_exists(text, uuid) from public;
grant execute on function private.sync_columns(text), private.server_columns(), private.sync_row_exists(text, uuid)
  to authenticated;
revoke all on function grids.sync_push(text, jsonb), grids.sync_pull(text, timestamptz, uuid, int),
  grids.sync_pull_group(uuid, text, uuid, int) from public, anon;
grant execute on function grids.sync_push(text, jsonb), grids.sync_pull(text, timestamptz, uuid, int),
  grids.sync_pull_group(uuid, text, uuid, int) to authenticated;
