-- sync_push (§6.2) with a statement per table written out: every per-row
-- statement is static, so PL/pgSQL keeps its plan instead of parsing and
-- planning dynamic statements for each row pushed. Each row has its own
-- subtransaction, so a failing row never aborts the rest.
--
-- A batch of moments whose rows cannot touch one another (distinct ids, distinct
-- squares) is first written together: one INSERT for the new rows and one UPDATE
-- for the stored ones, in a single subtransaction. The triggers run row by row
-- either way and a row sees the rows before it as it would alone (its square
-- and its neighbours are all a moment's rules touch before the insert; what they
-- hand to AFTER triggers is keyed by row). If anything in the batch fails, that
-- attempt is undone and the batch goes row by row, so every row still gets its
-- own answer. Moments are most of what a phone pushes.

-- The corrections logged since summit.corrected was last emptied, by row id:
-- {"<id>": "kind,kind"} (private.log_correction appends "<id>:<kind>,").
create or replace function private.corrections_logged() returns jsonb
  language sql stable
  as $$
    select coalesce(jsonb_object_agg(c.id, c.codes), '{}')
    from (select split_part(x, ':', 1) as id, string_agg(split_part(x, ':', 2), ',') as codes
          from unnest(string_to_array(current_setting('summit.corrected', true), ',')) x
          where x <> '' group by 1) c
  $$;

-- Which of these moments are stored (visible or not)? Only the ids, never the rows.
create or replace function private.stored_moment_ids(p_ids uuid[]) returns uuid[]
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  return array(select m.id from grids.moments m where m.id = any (p_ids));
end
$$;

-- The moments of one batch written together; null when the batch does not
-- qualify (a malformed row, a repeated id or square) or any row fails, having
-- then written nothing.
create or replace function private.sync_push_moments_together(p_rows jsonb, p_allowed text[], p_defaults jsonb)
returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  v_ids uuid[];
  v_squares uuid[];
  v_stored uuid[];
  v_written uuid[];
  v_corrected jsonb;
begin
  if exists (select 1 from jsonb_array_elements(p_rows) r
             where jsonb_typeof(r.value) is distinct from 'object'
                or coalesce(r.value ->> 'id', '') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
                or exists (select 1 from jsonb_object_keys(r.value) k where not (k = any (p_allowed)))) then
    return null;
  end if;
  select array_agg((r.value ->> 'id')::uuid order by r.n) into v_ids
  from jsonb_array_elements(p_rows) with ordinality r(value, n);
  v_stored := private.stored_moment_ids(v_ids);
  -- a new row's square is the one it names; a stored row's square never changes
  -- (one the caller cannot see stays null, and row by row answers for it)
  v_squares := array(select m.user_square_id from unnest(v_stored) i left join grids.moments m on m.id = i) || array(
    select (r.value ->> 'user_square_id')::uuid from jsonb_array_elements(p_rows) r
    where not ((r.value ->> 'id')::uuid = any (v_stored)));
  if (select count(distinct i) from unnest(v_ids) i) <> cardinality(v_ids)
     or exists (select 1 from unnest(v_squares) q where q is null)
     or (select count(distinct q) from unnest(v_squares) q) <> cardinality(v_squares) then
    return null;
  end if;
  begin
    perform set_config('summit.corrected', '', true);
    with inserted as (
      insert into grids.moments (id, user_square_id, title, body, happened_on, place, weather, with_whom, audience,
                                 deleted, created_at, updated_at, device_id)
      select (e.value ->> 'id')::uuid, r.user_square_id, r.title, r.body, r.happened_on, r.place, r.weather,
             r.with_whom, r.audience, r.deleted, r.created_at, r.updated_at, r.device_id
      from jsonb_array_elements(p_rows) with ordinality e(value, n)
      cross join lateral jsonb_populate_record(null::grids.moments, p_defaults || e.value) r
      where not ((e.value ->> 'id')::uuid = any (v_stored))
      order by e.n
      returning id)
    select coalesce(array_agg(id), '{}') into v_written from inserted;
    -- parent keys are fixed once inserted; a column the row leaves out keeps its value
    with updated as (
      update grids.moments t set
        title = case when e.value ? 'title' then r.title else t.title end,
        body = case when e.value ? 'body' then r.body else t.body end,
        happened_on = case when e.value ? 'happened_on' then r.happened_on else t.happened_on end,
        place = case when e.value ? 'place' then r.place else t.place end,
        weather = case when e.value ? 'weather' then r.weather else t.weather end,
        with_whom = case when e.value ? 'with_whom' then r.with_whom else t.with_whom end,
        audience = case when e.value ? 'audience' then r.audience else t.audience end,
        deleted = case when e.value ? 'deleted' then r.deleted else t.deleted end,
        created_at = case when e.value ? 'created_at' then r.created_at else t.created_at end,
        updated_at = case when e.value ? 'updated_at' then r.updated_at else t.updated_at end,
        device_id = case when e.value ? 'device_id' then r.device_id else t.device_id end
      from jsonb_array_elements(p_rows) e(value)
      cross join lateral jsonb_populate_record(null::grids.moments, e.value) r
      where (e.value ->> 'id')::uuid = any (v_stored) and t.id = (e.value ->> 'id')::uuid
      returning t.id)
    select v_written || coalesce(array_agg(id), '{}') into v_written from updated;
    -- a stored row the caller cannot see is someone else's: row by row says so
    if exists (select 1 from unnest(v_stored) i where not (i = any (v_written))
               and not exists (select 1 from grids.moments m where m.id = i)) then
      raise exception using errcode = 'P0001', message = 'not_allowed';
    end if;
    v_corrected := private.corrections_logged();
  exception when others then
    return null;
  end;
  return (
    select jsonb_agg(jsonb_build_object(
             'id', i.id,
             'outcome', case when not (i.id = any (v_written)) then 'ignored'
                             when v_corrected ? i.id::text then 'corrected' else 'applied' end,
             'code', v_corrected ->> i.id::text,
             'row', (select to_jsonb(t) from grids.moments t where t.id = i.id)) order by i.n)
    from unnest(v_ids) with ordinality i(id, n));
end
$$;

-- Does a row with this id exist (visible or not)? Only the answer, never the row.
create or replace function private.sync_row_exists(p_table text, p_id uuid) returns boolean
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  return case p_table
    when 'profile_interests' then exists (select 1 from grids.profile_interests where id = p_id)
    when 'user_grids' then exists (select 1 from grids.user_grids where id = p_id)
    when 'user_squares' then exists (select 1 from grids.user_squares where id = p_id)
    when 'moments' then exists (select 1 from grids.moments where id = p_id)
    when 'moment_entries' then exists (select 1 from grids.moment_entries where id = p_id)
    when 'photos' then exists (select 1 from grids.photos where id = p_id)
    else false end;
end
$$;

-- What an insert takes for a column the row leaves out: the column's default.
create or replace function private.sync_insert_defaults(p_table text) returns jsonb
  language sql immutable
  set search_path = ''
  as $$
    select case p_table
      when 'moments' then '{"title": "", "body": "", "place": "", "weather": "", "with_whom": "", "audience": "private"}'::jsonb
      when 'moment_entries' then '{"body": "", "audience": "private"}'::jsonb
      when 'user_grids' then '{"audience": "private"}'::jsonb
      when 'photos' then '{"sort": 0}'::jsonb
      else '{}'::jsonb
    end || '{"deleted": false, "device_id": "00000000-0000-0000-0000-000000000000"}'::jsonb
  $$;

create or replace function grids.sync_push(p_table text, p_rows jsonb) returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  v_cols text[];
  v_allowed text[];
  v_defaults jsonb;
  v_row jsonb;
  v_full jsonb;
  v_id uuid;
  v_bad text;
  v_ret uuid;
  v_out jsonb[] := '{}';
  v_outcome text;
  v_code text;
  v_stored jsonb;
  v_together jsonb;
  v_exists boolean;
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
  v_allowed := v_cols || private.server_columns() || array['id'];
  v_defaults := private.sync_insert_defaults(p_table);
  if p_table = 'moments' then
    v_together := private.sync_push_moments_together(p_rows, v_allowed, v_defaults);
    if v_together is not null then
      return v_together;
    end if;
  end if;
  for v_row in select value from jsonb_array_elements(p_rows) loop
    v_outcome := null; v_code := null; v_stored := null; v_id := null; v_ret := null;
    perform set_config('summit.corrected', '', true);
    begin
      if jsonb_typeof(v_row) is distinct from 'object' then
        perform private.fail('row_invalid', 'Each row is a JSON object.');
      end if;
      -- checked by pattern, not by catching a failed cast: a subtransaction per row is enough
      if coalesce(v_row ->> 'id', '') !~* '^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$' then
        perform private.fail('id_invalid', 'Each row needs its id, a uuid.');
      end if;
      v_id := (v_row ->> 'id')::uuid;
      select min(k) into v_bad from jsonb_object_keys(v_row) k where not (k = any (v_allowed));
      if v_bad is not null then
        perform private.fail('unknown_column', format('%s.%s cannot be pushed.', p_table, v_bad));
      end if;
      -- server-owned columns (C5) are accepted and ignored: only client columns are read below
      v_exists := private.sync_row_exists(p_table, v_id);
      if v_exists then
        -- parent keys and positions are fixed once inserted; a column the row leaves out keeps its value
        case p_table
        when 'profile_interests' then
          update grids.profile_interests t set
            deleted = case when v_row ? 'deleted' then r.deleted else t.deleted end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.profile_interests, v_row) r where t.id = v_id returning t.id into v_ret;
        when 'user_grids' then
          update grids.user_grids t set
            audience = case when v_row ? 'audience' then r.audience else t.audience end,
            deleted = case when v_row ? 'deleted' then r.deleted else t.deleted end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.user_grids, v_row) r
          where t.id = v_id and not private.pristine_starter_board(v_id, v_row) returning t.id into v_ret;
        when 'user_squares' then
          update grids.user_squares t set
            revealed_at = case when v_row ? 'revealed_at' then r.revealed_at else t.revealed_at end,
            freebie_at = case when v_row ? 'freebie_at' then r.freebie_at else t.freebie_at end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.user_squares, v_row) r where t.id = v_id returning t.id into v_ret;
        when 'moments' then
          update grids.moments t set
            title = case when v_row ? 'title' then r.title else t.title end,
            body = case when v_row ? 'body' then r.body else t.body end,
            happened_on = case when v_row ? 'happened_on' then r.happened_on else t.happened_on end,
            place = case when v_row ? 'place' then r.place else t.place end,
            weather = case when v_row ? 'weather' then r.weather else t.weather end,
            with_whom = case when v_row ? 'with_whom' then r.with_whom else t.with_whom end,
            audience = case when v_row ? 'audience' then r.audience else t.audience end,
            deleted = case when v_row ? 'deleted' then r.deleted else t.deleted end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.moments, v_row) r where t.id = v_id returning t.id into v_ret;
        when 'moment_entries' then
          update grids.moment_entries t set
            moment_id = case when v_row ? 'moment_id' then r.moment_id else t.moment_id end,
            body = case when v_row ? 'body' then r.body else t.body end,
            audience = case when v_row ? 'audience' then r.audience else t.audience end,
            deleted = case when v_row ? 'deleted' then r.deleted else t.deleted end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.moment_entries, v_row) r where t.id = v_id returning t.id into v_ret;
        when 'photos' then
          update grids.photos t set
            moment_id = case when v_row ? 'moment_id' then r.moment_id else t.moment_id end,
            audience = case when v_row ? 'audience' then r.audience else t.audience end,
            sort = case when v_row ? 'sort' then r.sort else t.sort end,
            width = case when v_row ? 'width' then r.width else t.width end,
            height = case when v_row ? 'height' then r.height else t.height end,
            byte_size = case when v_row ? 'byte_size' then r.byte_size else t.byte_size end,
            deleted = case when v_row ? 'deleted' then r.deleted else t.deleted end,
            created_at = case when v_row ? 'created_at' then r.created_at else t.created_at end,
            updated_at = case when v_row ? 'updated_at' then r.updated_at else t.updated_at end,
            device_id = case when v_row ? 'device_id' then r.device_id else t.device_id end
          from jsonb_populate_record(null::grids.photos, v_row) r where t.id = v_id returning t.id into v_ret;
        end case;
        if v_ret is null and not private.sync_row_visible(p_table, v_id) then
          perform private.fail('not_allowed', 'This row belongs to someone else.');
        end if;
      else
        -- a column the row leaves out takes its default
        v_full := v_defaults || v_row;
        case p_table
        when 'profile_interests' then
          insert into grids.profile_interests (id, interest, deleted, created_at, updated_at, device_id)
          select v_id, r.interest, r.deleted, r.created_at, r.updated_at, r.device_id
          from jsonb_populate_record(null::grids.profile_interests, v_full) r returning id into v_ret;
        when 'user_grids' then
          insert into grids.user_grids (id, grid_id, audience, deleted, created_at, updated_at, device_id)
          select v_id, r.grid_id, r.audience, r.deleted, r.created_at, r.updated_at, r.device_id
          from jsonb_populate_record(null::grids.user_grids, v_full) r returning id into v_ret;
        when 'user_squares' then
          insert into grids.user_squares (id, user_grid_id, position, revealed_at, freebie_at, created_at, updated_at, device_id)
          select v_id, r.user_grid_id, r.position, r.revealed_at, r.freebie_at, r.created_at, r.updated_at, r.device_id
          from jsonb_populate_record(null::grids.user_squares, v_full) r returning id into v_ret;
        when 'moments' then
          insert into grids.moments (id, user_square_id, title, body, happened_on, place, weather, with_whom, audience, deleted,
                                     created_at, updated_at, device_id)
          select v_id, r.user_square_id, r.title, r.body, r.happened_on, r.place, r.weather, r.with_whom, r.audience, r.deleted,
                 r.created_at, r.updated_at, r.device_id
          from jsonb_populate_record(null::grids.moments, v_full) r returning id into v_ret;
        when 'moment_entries' then
          insert into grids.moment_entries (id, moment_id, body, audience, deleted, created_at, updated_at, device_id)
          select v_id, r.moment_id, r.body, r.audience, r.deleted, r.created_at, r.updated_at, r.device_id
          from jsonb_populate_record(null::grids.moment_entries, v_full) r returning id into v_ret;
        when 'photos' then
          insert into grids.photos (id, moment_id, audience, sort, width, height, byte_size, deleted, created_at, updated_at, device_id)
          select v_id, r.moment_id, r.audience, r.sort, r.width, r.height, r.byte_size, r.deleted, r.created_at, r.updated_at,
                 r.device_id
          from jsonb_populate_record(null::grids.photos, v_full) r returning id into v_ret;
        end case;
      end if;
      v_code := private.corrections_logged() ->> v_id::text;
      v_outcome := case when v_ret is null then 'ignored' when v_code is not null then 'corrected' else 'applied' end;
    exception when others then
      v_outcome := 'error';
      v_code := case when sqlstate = 'P0001' then sqlerrm else sqlstate end;
    end;
    if v_id is not null then
      -- reading a row back cannot fail: no subtransaction needed
      v_stored := case p_table
        when 'profile_interests' then (select to_jsonb(t) from grids.profile_interests t where id = v_id)
        when 'user_grids' then (select to_jsonb(t) from grids.user_grids t where id = v_id)
        when 'user_squares' then (select to_jsonb(t) from grids.user_squares t where id = v_id)
        when 'moments' then (select to_jsonb(t) from grids.moments t where id = v_id)
        when 'moment_entries' then (select to_jsonb(t) from grids.moment_entries t where id = v_id)
        when 'photos' then (select to_jsonb(t) from grids.photos t where id = v_id)
      end;
    end if;
    v_out := v_out || jsonb_build_object('id', v_id, 'outcome', v_outcome, 'code', v_code, 'row', v_stored);
  end loop;
  return to_jsonb(v_out);
end
$$;

-- A starter board exactly as a phone's start-shelf makes it (the caller's
-- deterministic id for a starter grid, never edited: created_at = updated_at).
-- Starting a shelf is insert-if-absent: such a row never overwrites the board
-- the server holds, whatever its timestamp — a second phone that starts the
-- shelf before its first sync must not reset the audience (and so narrow the
-- moments) chosen on the first. The push answers the stored row, which the
-- phone takes.
create or replace function private.pristine_starter_board(p_id uuid, p_row jsonb) returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
    select (p_row ->> 'created_at') is not null
       and (p_row ->> 'created_at')::timestamptz = (p_row ->> 'updated_at')::timestamptz
       and exists (select 1 from grids.grids g
                   where g.kind = 'starter' and g.starter_key is not null
                     and p_id = private.v5('user_grid:' || auth.uid()::text || ':' || g.starter_key))
  $$;

-- Can the caller see this row (RLS)? Asked only after an update changed nothing.
create or replace function private.sync_row_visible(p_table text, p_id uuid) returns boolean
  language plpgsql stable security invoker
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  return case p_table
    when 'profile_interests' then exists (select 1 from grids.profile_interests where id = p_id)
    when 'user_grids' then exists (select 1 from grids.user_grids where id = p_id)
    when 'user_squares' then exists (select 1 from grids.user_squares where id = p_id)
    when 'moments' then exists (select 1 from grids.moments where id = p_id)
    when 'moment_entries' then exists (select 1 from grids.moment_entries where id = p_id)
    when 'photos' then exists (select 1 from grids.photos where id = p_id)
    else false end;
end
$$;

revoke all on function private.sync_row_exists(text, uuid), private.sync_insert_defaults(text), private.corrections_logged(),
  private.sync_row_visible(text, uuid), private.pristine_starter_board(uuid, jsonb), private.stored_moment_ids(uuid[]),
  private.sync_push_moments_together(jsonb, text[], jsonb) from public;
grant execute on function private.sync_row_exists(text, uuid), private.sync_insert_defaults(text), private.corrections_logged(),
  private.sync_row_visible(text, uuid), private.pristine_starter_board(uuid, jsonb), private.stored_moment_ids(uuid[]),
  private.sync_push_moments_together(jsonb, text[], jsonb) to authenticated;
revoke all on function grids.sync_push(text, jsonb) from public, anon;
grant execute on function grids.sync_push(text, jsonb) to authenticated;
