-- Last-write-wins and the game rules, as triggers (§3.3, §6.4).
--
-- Each synced table has three BEFORE triggers, fired in name order:
--   a_sync_guard  (update) C1-C3, C5 generic columns, C15 — decides whether a
--                 client's write is applied at all, before any side effect
--   m_<table>     table rules: C6 copies, C8-C12, R4, R6, R7, R12, R13, V-A3
--   z_sync_stamp  tombstone blanking, C7 for server writes, no-op detection,
--                 server_updated_at = clock_timestamp()
-- plus AFTER triggers for server writes on other rows (R1, R3, R14, C10,
-- V-A3, group_unshares). Trigger bodies run as the writer; a write made by
-- definer code (running as the owner) is a server write (private.internal()).
-- Server writes on other rows go through definer helpers that check the
-- client (private.assert_writer). Every function here that runs statements plans
-- generically, for the reason given in grids/helpers.sql.

-- ------------------------------------------------------------ generic

create or replace function private.sync_guard() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if private.internal() then
    return new;
  end if;
  new.created_at := old.created_at;
  new.server_updated_at := old.server_updated_at;
  new.device_id := coalesce(new.device_id, private.nil_uuid());
  new.updated_at := coalesce(new.updated_at, old.updated_at);
  -- C3: a tombstone is final
  if old.deleted then
    return null;
  end if;
  new.updated_at := private.clamp_clock(tg_table_name, new.id, new.updated_at);
  if new.deleted then
    -- delete wins whatever K; the stored K becomes the larger
    if (new.updated_at, new.device_id) < (old.updated_at, old.device_id) then
      new.updated_at := old.updated_at;
      new.device_id := old.device_id;
    end if;
    return new;
  end if;
  if (new.updated_at, new.device_id) < (old.updated_at, old.device_id) then
    if tg_table_name = 'user_squares' then
      -- C4 merges revealed_at / freebie_at whatever K says: keep the stored K
      new.updated_at := old.updated_at;
      new.device_id := old.device_id;
      return new;
    end if;
    return null;
  end if;
  return new;
end
$$;

create or replace function private.sync_stamp() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'INSERT' then
    new.deleted := coalesce(new.deleted, false);
    new.device_id := coalesce(new.device_id, private.nil_uuid());
    new.created_at := coalesce(new.created_at, summit.now());
    if private.internal() then
      new.updated_at := coalesce(new.updated_at, clock_timestamp());
    else
      new.updated_at := private.clamp_clock(tg_table_name, new.id, coalesce(new.updated_at, new.created_at));
    end if;
  end if;
  -- a tombstone keeps no free text
  if new.deleted and (tg_op = 'INSERT' or not old.deleted) then
    if tg_table_name = 'moments' then
      new.title := ''; new.body := ''; new.place := ''; new.weather := ''; new.with_whom := '';
    elsif tg_table_name = 'moment_entries' then
      new.body := '';
    end if;
  end if;
  if tg_op = 'UPDATE' then
    if new is not distinct from old then
      return null;  -- nothing changes: no bump
    end if;
    if private.internal() then
      -- C7: beats every earlier client write, and every phone pulls it
      new.updated_at := greatest(clock_timestamp(), old.updated_at + interval '1 millisecond');
      new.device_id := private.nil_uuid();
    end if;
  end if;
  new.server_updated_at := clock_timestamp();
  return new;
end
$$;

-- A BEFORE trigger hands a value to the AFTER trigger of the same row through a
-- transaction-local setting keyed by the row's id: the AFTER row triggers of a
-- statement all fire at its end, so one value per setting would let the rows of
-- a many-row statement take each other's.
create or replace function private.hand_to_after(p_setting text, p_row_id uuid, p_value jsonb) returns void
  language plpgsql volatile
  set search_path = ''
  as $$
begin
  perform set_config(p_setting, (coalesce(nullif(current_setting(p_setting, true), ''), '{}')::jsonb
                                 || jsonb_build_object(p_row_id::text, p_value))::text, true);
end
$$;

-- What the BEFORE trigger handed to this row, if anything; taken, so the setting
-- is empty again once every row has taken its own.
create or replace function private.take_from_before(p_setting text, p_row_id uuid) returns jsonb
  language plpgsql volatile
  set search_path = ''
  as $$
declare
  v_all jsonb := nullif(current_setting(p_setting, true), '')::jsonb;
  v_value jsonb := v_all -> p_row_id::text;
begin
  if v_value is not null then
    v_all := v_all - p_row_id::text;
    perform set_config(p_setting, case when v_all = '{}'::jsonb then '' else v_all::text end, true);
  end if;
  return v_value;
end
$$;

-- ------------------------------------------------------------ server writes

-- R1: size² squares, centre revealed at the user_grid's creation.
create or replace function private.create_squares(p_user_grid_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  ug grids.user_grids;
  n int;
begin
  perform private.assert_writer(p_user_grid_id);
  select * into ug from grids.user_grids where id = p_user_grid_id;
  select size into n from grids.grids where id = ug.grid_id;
  insert into grids.user_squares (id, user_grid_id, user_id, group_id, position, revealed_at,
                                  created_at, updated_at, device_id, deleted)
  select private.v5('square:' || ug.id::text || ':' || p::text), ug.id, ug.user_id, ug.group_id, p,
         case when p = any (private.grid_centre(n)) then ug.created_at end,
         ug.created_at, ug.created_at, private.nil_uuid(), ug.deleted
  from generate_series(0, n * n - 1) p
  on conflict do nothing;
end
$$;

-- R3: reveal the orthogonal neighbours of a square that became done.
create or replace function private.reveal_neighbours(p_user_grid_id uuid, p_position int, p_at timestamptz)
returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  n int;
begin
  perform private.assert_writer(p_user_grid_id);
  select g.size into n from grids.user_grids ug join grids.grids g on g.id = ug.grid_id
  where ug.id = p_user_grid_id;
  -- n as a variable, not a subquery: an argument with a subquery keeps the helper from inlining
  update grids.user_squares set revealed_at = coalesce(p_at, summit.now())
  where user_grid_id = p_user_grid_id and revealed_at is null and not deleted
    and position = any (private.grid_neighbours(n, p_position));
end
$$;

-- R4: reveal one square (a moment arrived for a hidden square).
create or replace function private.reveal_square(p_square_id uuid, p_at timestamptz) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  v_ug uuid;
begin
  select user_grid_id into v_ug from grids.user_squares where id = p_square_id;
  perform private.assert_writer(v_ug);
  update grids.user_squares set revealed_at = coalesce(p_at, summit.now())
  where id = p_square_id and revealed_at is null;
end
$$;

-- C8 / C9: the live moment on a square other than p_except (square locked).
create or replace function private.live_moment_on(p_square_id uuid, p_except uuid) returns grids.moments
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
  v_ug uuid;
begin
  select user_grid_id into v_ug from grids.user_squares where id = p_square_id for update;
  perform private.assert_writer(v_ug);
  select * into m from grids.moments
  where user_square_id = p_square_id and not deleted and id <> p_except;
  return m;
end
$$;

-- Tombstone a moment that lost a same-square conflict (C8), with its photos.
create or replace function private.tombstone_moment(p_moment_id uuid, p_merged_into uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
begin
  select * into m from grids.moments where id = p_moment_id;
  if not found then return; end if;
  perform private.assert_writer(m.user_grid_id);
  update grids.moments set deleted = true, merged_into = p_merged_into where id = p_moment_id and not deleted;
  perform private.log_correction('moments', p_moment_id, 'merged', jsonb_build_object('merged_into', p_merged_into));
  perform private.cascade_moment(p_moment_id);
end
$$;

-- R14 for a solo moment: its photos follow it.
create or replace function private.cascade_moment(p_moment_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
begin
  select * into m from grids.moments where id = p_moment_id;
  if not found or not m.deleted then return; end if;
  perform private.assert_writer(m.user_grid_id);
  with t as (
    update grids.photos set deleted = true where moment_id = p_moment_id and not deleted returning storage_path)
  insert into private.storage_deletions (bucket, name) select 'photos', storage_path from t;
  if m.group_id is not null then
    update grids.moment_entries set deleted = true where moment_id = p_moment_id and not deleted;
  end if;
end
$$;

-- R14: a deleted user_grid deletes its squares, moments, entries and photos.
create or replace function private.cascade_user_grid(p_user_grid_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  perform private.assert_writer(p_user_grid_id);
  if not exists (select 1 from grids.user_grids where id = p_user_grid_id and deleted) then
    return;
  end if;
  with t as (
    update grids.photos p set deleted = true
    from grids.moments m
    where m.user_grid_id = p_user_grid_id and p.moment_id = m.id and not p.deleted
    returning p.storage_path)
  insert into private.storage_deletions (bucket, name) select 'photos', storage_path from t;
  update grids.moment_entries e set deleted = true
  from grids.moments m
  where m.user_grid_id = p_user_grid_id and e.moment_id = m.id and not e.deleted;
  update grids.moments set deleted = true where user_grid_id = p_user_grid_id and not deleted;
  update grids.user_squares set deleted = true where user_grid_id = p_user_grid_id and not deleted;
end
$$;

-- V-A3: narrowing a grid narrows its wider moments.
create or replace function private.narrow_moments(p_user_grid_id uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  v_aud grids.audience;
begin
  perform private.assert_writer(p_user_grid_id);
  select audience into v_aud from grids.user_grids where id = p_user_grid_id and group_id is null;
  if v_aud is null then return; end if;
  update grids.moments set audience = v_aud
  where user_grid_id = p_user_grid_id and not deleted and audience > v_aud;
end
$$;

-- R13 / C9 / C11: words for a group moment land in the author's entry.
-- Creates the entry or joins the text onto the author's live one.
create or replace function private.body_to_entry(p_moment_id uuid, p_author uuid, p_body text,
  p_audience grids.part_audience default 'private', p_created_at timestamptz default null)
returns uuid
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
  e grids.moment_entries;
  v_id uuid;
begin
  if coalesce(p_body, '') = '' then return null; end if;
  select * into m from grids.moments where id = p_moment_id;
  if not found or m.group_id is null then return null; end if;
  perform private.assert_writer(m.user_grid_id);
  if private.client_call() and p_author is distinct from auth.uid() then
    perform private.fail('not_allowed', 'Only the author writes an entry.');
  end if;
  select * into e from grids.moment_entries
  where moment_id = p_moment_id and author_id = p_author and not deleted for update;
  if found then
    update grids.moment_entries
    set body = left(case when body = '' then p_body else body || E'\n\n' || p_body end, 10000),
        audience = least(audience, p_audience)
    where id = e.id;
    return e.id;
  end if;
  v_id := private.v5('entry:' || p_moment_id::text || ':' || p_author::text);
  if exists (select 1 from grids.moment_entries where id = v_id) then
    v_id := gen_random_uuid();
  end if;
  insert into grids.moment_entries (id, moment_id, author_id, group_id, body, audience, created_at, updated_at)
  values (v_id, p_moment_id, p_author, m.group_id, left(p_body, 10000), p_audience,
          coalesce(p_created_at, summit.now()), clock_timestamp());
  return v_id;
end
$$;

-- group_unshares rows (server writes, no client grant).
create or replace function private.unshare(p_group_id uuid, p_type text, p_object_id uuid,
  p_author uuid, p_for_user uuid, p_reason text) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if private.client_call() and p_author is distinct from auth.uid() then
    perform private.fail('not_allowed', 'Only the author unshares a part.');
  end if;
  insert into grids.group_unshares (group_id, object_type, object_id, author_id, for_user_id, reason)
  values (p_group_id, p_type, p_object_id, p_author, p_for_user, p_reason);
end
$$;

-- C10: a deleted group moment keeps the other members' parts on a rescue moment.
create or replace function private.rescue_group_moment(p_moment_id uuid, p_deleter uuid) returns void
  language plpgsql volatile security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
  v_rescue uuid := private.v5('rescue:' || p_moment_id::text);
  v_first uuid;
  -- the shared details its BEFORE trigger kept, taken whichever way this ends
  v_fields jsonb := coalesce(private.take_from_before('summit.rescue_fields', p_moment_id), '{}'::jsonb);
begin
  select * into m from grids.moments where id = p_moment_id;
  if not found or m.group_id is null or not m.deleted then return; end if;
  perform private.assert_writer(m.user_grid_id);
  -- the deleter's own parts go with the moment
  with t as (
    update grids.photos set deleted = true
    where moment_id = p_moment_id and not deleted and user_id is not distinct from p_deleter
    returning storage_path)
  insert into private.storage_deletions (bucket, name) select 'photos', storage_path from t;
  update grids.moment_entries set deleted = true
  where moment_id = p_moment_id and not deleted and author_id is not distinct from p_deleter;
  select author into v_first from (
    select author_id as author, created_at from grids.moment_entries where moment_id = p_moment_id and not deleted
    union all
    select user_id, created_at from grids.photos where moment_id = p_moment_id and not deleted) s
  order by created_at, author nulls last limit 1;
  if not found then return; end if;
  if exists (select 1 from grids.moments where user_square_id = m.user_square_id and not deleted) then
    -- someone already put a new moment on the square: the parts go there
    select id into v_rescue from grids.moments where user_square_id = m.user_square_id and not deleted;
  else
    insert into grids.moments (id, user_square_id, user_grid_id, user_id, group_id, title, body, happened_on,
                               place, weather, with_whom, audience, created_at, updated_at)
    values (v_rescue, m.user_square_id, m.user_grid_id, v_first, m.group_id,
            coalesce(v_fields ->> 'title', ''), '', coalesce((v_fields ->> 'happened_on')::date, m.happened_on),
            coalesce(v_fields ->> 'place', ''), coalesce(v_fields ->> 'weather', ''),
            coalesce(v_fields ->> 'with_whom', ''), 'private', m.created_at, clock_timestamp())
    on conflict (id) do nothing;
  end if;
  update grids.moments set merged_into = v_rescue where id = p_moment_id;
  update grids.moment_entries set moment_id = v_rescue where moment_id = p_moment_id and not deleted;
  update grids.photos set moment_id = v_rescue where moment_id = p_moment_id and not deleted;
end
$$;

-- ------------------------------------------------------------ user_grids

create or replace function private.user_grids_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'INSERT' then
    if not private.internal() then
      new.user_id := auth.uid();
      new.group_id := null;
      new.converted_at := null;
      if not private.grid_exists(new.grid_id) then
        perform private.fail('grid_missing', 'Save the grid (save_grid) before the rows that use it.');
      end if;
    end if;
    if new.group_id is not null then
      new.audience := 'private';
    end if;
    return new;
  end if;
  -- UPDATE
  if not private.internal() then
    new.user_id := old.user_id;
    new.group_id := old.group_id;
    new.converted_at := old.converted_at;
    new.grid_id := old.grid_id;
    if new.deleted and not old.deleted then
      if old.group_id is not null then
        perform private.log_correction('user_grids', new.id, 'use_leave_group');
        return null;
      end if;
      -- R12 / C14: a grid with live moments stays on the shelf
      if exists (select 1 from grids.moments where user_grid_id = new.id and not deleted) then
        perform private.log_correction('user_grids', new.id, 'grid_has_moments');
        return null;
      end if;
    end if;
  end if;
  if new.group_id is not null then
    new.audience := 'private';
  end if;
  return new;
end
$$;

create or replace function private.user_grids_after() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'INSERT' then
    perform private.create_squares(new.id);
  elsif new.deleted and not old.deleted then
    perform private.cascade_user_grid(new.id);
  elsif new.audience < old.audience and new.group_id is null then
    perform private.narrow_moments(new.id);
  end if;
  return null;
end
$$;

-- ------------------------------------------------------------ user_squares

create or replace function private.user_squares_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  ug grids.user_grids;
  n int;
  v_allow int;
begin
  if tg_op = 'UPDATE' then
    new.user_grid_id := old.user_grid_id;
    new.position := old.position;
  end if;
  select * into ug from grids.user_grids where id = new.user_grid_id;
  if not found then
    perform private.fail('grid_missing', 'Push the user_grid before its squares.');
  end if;
  new.user_id := ug.user_id;
  new.group_id := ug.group_id;
  select g.size, s.freebies into n, v_allow
  from grids.grids g join grids.grid_sizes s on s.side = g.size where g.id = ug.grid_id;
  if tg_op = 'INSERT' then
    if new.position < 0 or new.position >= n * n then
      perform private.fail('position_invalid', format('A %s x %s board has positions 0 to %s.', n, n, n * n - 1));
    end if;
    if ug.deleted then
      new.deleted := true;
    end if;
  else
    if not private.internal() then
      new.deleted := old.deleted;
    end if;
    -- R6 / C4: monotonic, the earliest value wins
    new.revealed_at := case when old.revealed_at is null then new.revealed_at
                            when new.revealed_at is null then old.revealed_at
                            else least(old.revealed_at, new.revealed_at) end;
    new.freebie_at := case when old.freebie_at is null then new.freebie_at
                           when new.freebie_at is null then old.freebie_at
                           else least(old.freebie_at, new.freebie_at) end;
  end if;
  -- R7: a new freebie needs a revealed square and an unused allowance
  if new.freebie_at is not null and (tg_op = 'INSERT' or old.freebie_at is null) then
    perform 1 from grids.user_grids where id = new.user_grid_id for update;
    if new.revealed_at is null then
      perform private.log_correction('user_squares', new.id, 'freebie_on_hidden_square');
      new.freebie_at := null;
    elsif (select count(*) from grids.user_squares
           where user_grid_id = new.user_grid_id and freebie_at is not null and id <> new.id) >= v_allow then
      perform private.log_correction('user_squares', new.id, 'freebie_over_allowance',
        jsonb_build_object('allowance', v_allow));
      new.freebie_at := null;
    end if;
  end if;
  return new;
end
$$;

create or replace function private.user_squares_after() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if private.internal() then
    return null;
  end if;
  if new.freebie_at is not null and (tg_op = 'INSERT' or old.freebie_at is null) and not new.deleted then
    perform private.reveal_neighbours(new.user_grid_id, new.position, new.freebie_at);
  end if;
  return null;
end
$$;

-- ------------------------------------------------------------ moments

create or replace function private.moments_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  parents record;
  sq grids.user_squares;
  ug grids.user_grids;
  other grids.moments;
  v_uid uuid := auth.uid();
  v_body text;
begin
  if tg_op = 'UPDATE' then
    new.user_square_id := old.user_square_id;
  end if;
  -- the board by key for the one square: a join may plan a scan of every board
  select s as square, (select u from grids.user_grids u where u.id = s.user_grid_id) as board into parents
  from grids.user_squares s where s.id = new.user_square_id;
  if not found then
    perform private.fail('parent_missing', 'Push the square before its moment.');
  end if;
  sq := parents.square;
  ug := parents.board;
  new.user_grid_id := sq.user_grid_id;
  new.group_id := ug.group_id;

  if private.internal() then
    if new.group_id is not null then new.audience := 'private'; new.body := ''; end if;
    return new;
  end if;

  -- client write
  if ug.group_id is not null and not private.is_member(ug.group_id, v_uid) then
    perform private.fail('not_allowed', 'Only members of this group can write its moments.');
  end if;
  if tg_op = 'INSERT' then
    new.hidden_at := null;
    new.merged_into := null;
    new.user_id := case when ug.group_id is null then ug.user_id else v_uid end;
  else
    new.user_grid_id := old.user_grid_id;
    new.user_id := old.user_id;
    new.hidden_at := old.hidden_at;
    new.merged_into := old.merged_into;
  end if;

  if ug.group_id is not null then
    new.audience := 'private';
  elsif new.audience > ug.audience then
    -- V-A3: never wider than its grid
    perform private.log_correction('moments', new.id, 'audience_clamped',
      jsonb_build_object('sent', new.audience, 'stored', ug.audience));
    new.audience := ug.audience;
  end if;

  if tg_op = 'INSERT' then
    -- C12: under a deleted parent it is stored as a tombstone
    if ug.deleted or sq.deleted then
      if not new.deleted then
        perform private.log_correction('moments', new.id, 'parent_deleted');
        new.deleted := true;
      end if;
      return new;
    end if;
    if new.deleted then
      -- A moment deleted on the phone before it reached the server was done there, and
      -- revealed its neighbours: they stay revealed (R3, "neighbours stay revealed").
      if sq.revealed_at is not null then
        perform private.reveal_neighbours(sq.user_grid_id, sq.position, new.created_at);
      end if;
      return new;
    end if;
    -- C8 / C9: one live moment per square
    other := private.live_moment_on(sq.id, new.id);
    if other.id is not null then
      if ug.group_id is not null
         or (new.updated_at, new.device_id) <= (other.updated_at, other.device_id) then
        -- the stored one is kept (group: first to the server; solo: larger K)
        if ug.group_id is not null and new.body <> '' then
          perform private.hand_to_after('summit.pending_body', new.id,
            jsonb_build_object('moment_id', other.id, 'author', v_uid, 'body', new.body));
        end if;
        perform private.log_correction('moments', new.id, 'merged', jsonb_build_object('merged_into', other.id));
        new.deleted := true;
        new.merged_into := other.id;
        return new;
      end if;
      perform private.tombstone_moment(other.id, new.id);
    end if;
    -- R4: a moment needs a revealed square
    if sq.revealed_at is null then
      perform private.log_correction('moments', new.id, 'revealed_hidden_square');
      perform private.reveal_square(sq.id, new.created_at);
    end if;
    -- R3 here rather than after the insert: a later row of the same statement
    -- then finds its square revealed, as it would in a statement of its own
    perform private.reveal_neighbours(sq.user_grid_id, sq.position, new.created_at);
    -- R13: a group moment's words go to the pusher's entry (after the insert)
    if ug.group_id is not null and new.body <> '' then
      perform private.hand_to_after('summit.pending_body', new.id,
        jsonb_build_object('moment_id', new.id, 'author', v_uid, 'body', new.body));
      perform private.log_correction('moments', new.id, 'body_moved_to_entry');
      new.body := '';
    end if;
    return new;
  end if;

  -- UPDATE by a client
  if ug.group_id is not null and new.body <> '' and not new.deleted then
    perform private.body_to_entry(new.id, v_uid, new.body);
    perform private.log_correction('moments', new.id, 'body_moved_to_entry');
    new.body := '';
  end if;
  if new.deleted and not old.deleted and ug.group_id is not null then
    -- keep the shared details for a rescue moment (C10)
    perform private.hand_to_after('summit.rescue_fields', new.id, jsonb_build_object('title', old.title,
      'happened_on', old.happened_on, 'place', old.place, 'weather', old.weather,
      'with_whom', old.with_whom));
  end if;
  return new;
end
$$;

create or replace function private.moments_after() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  v_pending jsonb;
begin
  if private.internal() then
    return null;
  end if;
  if tg_op = 'INSERT' then
    v_pending := private.take_from_before('summit.pending_body', new.id);
    if v_pending is not null then
      perform private.body_to_entry((v_pending ->> 'moment_id')::uuid, (v_pending ->> 'author')::uuid,
                                    v_pending ->> 'body', 'private', new.created_at);
    end if;
  elsif new.deleted and not old.deleted then
    if new.group_id is null then
      perform private.cascade_moment(new.id);
    else
      perform private.rescue_group_moment(new.id, auth.uid());
    end if;
  end if;
  return null;
end
$$;

-- ------------------------------------------------------------ entries

-- Follow merged_into (C11), at most 8 hops.
create or replace function private.follow_merges(p_moment_id uuid) returns grids.moments
  language plpgsql stable security definer
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
begin
  select * into m from grids.moments where id = p_moment_id;
  for i in 1..8 loop
    exit when not found or not m.deleted or m.merged_into is null;
    select * into m from grids.moments where id = m.merged_into;
  end loop;
  if m.id is not null then
    perform private.assert_writer(m.user_grid_id);
  end if;
  return m;
end
$$;

create or replace function private.entries_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
  target grids.moments;
  mine grids.moment_entries;
  v_uid uuid := auth.uid();
begin
  if tg_op = 'UPDATE' and private.internal() then
    select * into m from grids.moments where id = new.moment_id;
    new.group_id := m.group_id;
    return new;
  end if;
  if tg_op = 'INSERT' and private.internal() then
    return new;
  end if;
  select * into m from grids.moments where id = new.moment_id;
  if not found then
    perform private.fail('parent_missing', 'Push the moment before its entries.');
  end if;
  if m.group_id is null then
    perform private.fail('not_a_group_moment', 'Entries belong to group grids; a solo moment keeps its words in body.');
  end if;
  if not private.is_member(m.group_id, v_uid) then
    perform private.fail('not_allowed', 'Only members of this group can write entries.');
  end if;
  if tg_op = 'INSERT' then
    new.author_id := v_uid;
    new.merged_into := null;
  else
    new.author_id := old.author_id;
    new.merged_into := old.merged_into;
    if new.moment_id <> old.moment_id then
      -- C11: only onto a live moment of the same board
      if m.deleted or m.user_grid_id <> (select user_grid_id from grids.moments where id = old.moment_id) then
        new.moment_id := old.moment_id;
        select * into m from grids.moments where id = old.moment_id;
      end if;
    end if;
  end if;
  if m.deleted and m.merged_into is not null and not new.deleted then
    target := private.follow_merges(m.id);
    if target.id is not null and not target.deleted then
      new.moment_id := target.id;
      m := target;
      perform private.log_correction('moment_entries', new.id, 'redirected', jsonb_build_object('moment_id', target.id));
    end if;
  end if;
  new.group_id := m.group_id;
  if m.deleted and not new.deleted then
    perform private.log_correction('moment_entries', new.id, 'parent_deleted');
    new.deleted := true;
    return new;
  end if;
  -- C11: one live entry per author and moment; join onto the existing one
  if not new.deleted and (tg_op = 'INSERT' or new.moment_id <> old.moment_id) then
    select * into mine from grids.moment_entries
    where moment_id = new.moment_id and author_id = new.author_id and not deleted and id <> new.id;
    if found then
      perform private.body_to_entry(new.moment_id, new.author_id, new.body, new.audience);
      perform private.log_correction('moment_entries', new.id, 'merged', jsonb_build_object('merged_into', mine.id));
      new.deleted := true;
      new.merged_into := mine.id;
    end if;
  end if;
  return new;
end
$$;

-- An entry that goes from Group to Private leaves the other members' phones
-- through a group_unshares row (§6.7, P5). The server narrows entries too: when
-- words are joined onto a person's entry (R13, C9, C11: "the narrower audience
-- kept"), a Group entry can become Private by a server write. Such a write must
-- unshare the entry just as the author's own change does, or the phones that
-- already hold it keep showing it to the group (RLS no longer lets them pull it).
create or replace function private.entries_after() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  if old.audience = 'group' and new.audience = 'private' and not new.deleted then
    perform private.unshare(new.group_id, 'entry', new.id, new.author_id, null, 'private');
  end if;
  return null;
end
$$;

-- ------------------------------------------------------------ photos

create or replace function private.photos_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  m grids.moments;
  target grids.moments;
  v_uid uuid := auth.uid();
begin
  if private.internal() then
    if tg_op = 'UPDATE' and new.moment_id <> old.moment_id then
      select * into m from grids.moments where id = new.moment_id;
      new.group_id := m.group_id;
    end if;
    if new.group_id is null then new.audience := null;
    else new.audience := coalesce(new.audience, 'private'); end if;
    return new;
  end if;
  select * into m from grids.moments where id = new.moment_id;
  if not found then
    perform private.fail('parent_missing', 'Push the moment before its photos.');
  end if;
  if tg_op = 'INSERT' then
    new.user_id := v_uid;
    new.uploaded_at := null;
    new.storage_path := v_uid::text || '/' || new.id::text || '.webp';
    if m.group_id is null and m.user_id is distinct from v_uid then
      perform private.fail('not_allowed', 'Photos go on your own moments.');
    end if;
  else
    new.user_id := old.user_id;
    new.uploaded_at := old.uploaded_at;
    new.storage_path := old.storage_path;
    if new.moment_id <> old.moment_id then
      if m.group_id is null or m.deleted
         or m.user_grid_id <> (select user_grid_id from grids.moments where id = old.moment_id) then
        new.moment_id := old.moment_id;
        select * into m from grids.moments where id = old.moment_id;
      end if;
    end if;
  end if;
  if m.group_id is not null and not private.is_member(m.group_id, v_uid) then
    perform private.fail('not_allowed', 'Only members of this group can add photos.');
  end if;
  if m.group_id is not null and m.deleted and m.merged_into is not null and not new.deleted then
    target := private.follow_merges(m.id);
    if target.id is not null and not target.deleted then
      new.moment_id := target.id;
      m := target;
      perform private.log_correction('photos', new.id, 'redirected', jsonb_build_object('moment_id', target.id));
    end if;
  end if;
  new.group_id := m.group_id;
  if m.group_id is null then new.audience := null;
  else new.audience := coalesce(new.audience, 'private'); end if;
  if m.deleted and not new.deleted then
    perform private.log_correction('photos', new.id, 'parent_deleted');
    new.deleted := true;
    return new;
  end if;
  if not new.deleted and (tg_op = 'INSERT' or new.moment_id <> old.moment_id)
     and (select count(*) from grids.photos
          where moment_id = new.moment_id and user_id = v_uid and not deleted and id <> new.id) >= 10 then
    perform private.fail('too_many_photos', 'A moment holds at most 10 of your photos.');
  end if;
  return new;
end
$$;

create or replace function private.photos_after() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'UPDATE' and new.deleted and not old.deleted then
    perform private.queue_photo_object(new.id);
    return null;
  end if;
  if tg_op = 'INSERT' and new.deleted then
    return null;
  end if;
  if tg_op = 'UPDATE' and not private.internal()
     and old.audience = 'group' and new.audience = 'private' then
    perform private.unshare(new.group_id, 'photo', new.id, new.user_id, null, 'private');
  end if;
  return null;
end
$$;

-- ------------------------------------------------------------ interests

create or replace function private.profile_interests_rules() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if private.internal() then return new; end if;
  if tg_op = 'INSERT' then
    new.user_id := auth.uid();
  else
    new.user_id := old.user_id;
    new.interest := old.interest;
  end if;
  return new;
end
$$;

-- ------------------------------------------------------------ grid_squares

-- Fixed once saved (R10): no update or delete unless definer code does it.
create or replace function private.grid_squares_fixed() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'DELETE' and current_setting('summit.grid_delete', true) = 'on' then
    return old;
  end if;
  perform private.fail('squares_fixed', 'A grid''s squares never change once saved; copy it to make a new one.');
  return null;
end
$$;

create or replace function private.grid_squares_check() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
declare
  n int;
begin
  select size into n from grids.grids where id = new.grid_id;
  if new.position >= n * n then
    perform private.fail('position_invalid', format('A %s x %s grid has positions 0 to %s.', n, n, n * n - 1));
  end if;
  new.prompt := btrim(new.prompt);
  return new;
end
$$;

-- grids: server clock and C7 (written only by save_grid, admin RPCs and seeds)
create or replace function private.grids_stamp() returns trigger
  language plpgsql
  set search_path = ''
  set plan_cache_mode = force_generic_plan
  as $$
begin
  if tg_op = 'UPDATE' then
    if new is not distinct from old then return null; end if;
    new.size := old.size;
  end if;
  new.device_id := coalesce(new.device_id, private.nil_uuid());
  new.server_updated_at := clock_timestamp();
  return new;
end
$$;

-- ------------------------------------------------------------ wiring

do $$
declare
  t text;
begin
  foreach t in array array['user_grids', 'user_squares', 'moments', 'moment_entries', 'photos', 'profile_interests'] loop
    execute format('drop trigger if exists a_sync_guard on grids.%I', t);
    execute format('create trigger a_sync_guard before update on grids.%I
                      for each row execute function private.sync_guard()', t);
    execute format('drop trigger if exists z_sync_stamp on grids.%I', t);
    execute format('create trigger z_sync_stamp before insert or update on grids.%I
                      for each row execute function private.sync_stamp()', t);
  end loop;
end
$$;

drop trigger if exists m_user_grids on grids.user_grids;
create trigger m_user_grids before insert or update on grids.user_grids
  for each row execute function private.user_grids_rules();
drop trigger if exists m_user_grids_after on grids.user_grids;
create trigger m_user_grids_after after insert or update on grids.user_grids
  for each row execute function private.user_grids_after();

drop trigger if exists m_user_squares on grids.user_squares;
create trigger m_user_squares before insert or update on grids.user_squares
  for each row execute function private.user_squares_rules();
drop trigger if exists m_user_squares_after on grids.user_squares;
create trigger m_user_squares_after after insert or update on grids.user_squares
  for each row execute function private.user_squares_after();

drop trigger if exists m_moments on grids.moments;
create trigger m_moments before insert or update on grids.moments
  for each row execute function private.moments_rules();
-- Only rows with something left to do queue an AFTER event: words handed on by
-- the BEFORE trigger, or a moment just deleted.
drop trigger if exists m_moments_after on grids.moments;
drop trigger if exists m_moments_after_insert on grids.moments;
create trigger m_moments_after_insert after insert on grids.moments
  for each row when (current_setting('summit.pending_body', true) <> '')
  execute function private.moments_after();
drop trigger if exists m_moments_after_update on grids.moments;
create trigger m_moments_after_update after update on grids.moments
  for each row when (new.deleted and not old.deleted)
  execute function private.moments_after();

drop trigger if exists m_moment_entries on grids.moment_entries;
create trigger m_moment_entries before insert or update on grids.moment_entries
  for each row execute function private.entries_rules();
drop trigger if exists m_moment_entries_after on grids.moment_entries;
create trigger m_moment_entries_after after update on grids.moment_entries
  for each row execute function private.entries_after();

drop trigger if exists m_photos on grids.photos;
create trigger m_photos before insert or update on grids.photos
  for each row execute function private.photos_rules();
drop trigger if exists m_photos_after on grids.photos;
create trigger m_photos_after after insert or update on grids.photos
  for each row execute function private.photos_after();

drop trigger if exists m_profile_interests on grids.profile_interests;
create trigger m_profile_interests before insert or update on grids.profile_interests
  for each row execute function private.profile_interests_rules();

drop trigger if exists grid_squares_fixed on grids.grid_squares;
create trigger grid_squares_fixed before update or delete on grids.grid_squares
  for each row execute function private.grid_squares_fixed();
drop trigger if exists grid_squares_check on grids.grid_squares;
create trigger grid_squares_check before insert on grids.grid_squares
  for each row execute function private.grid_squares_check();

drop trigger if exists grids_stamp on grids.grids;
create trigger grids_stamp before insert or update on grids.grids
  for each row execute function private.grids_stamp();

revoke all on function private.sync_guard(), private.sync_stamp(), private.create_squares(uuid),
  private.reveal_neighbours(uuid, int, timestamptz), private.reveal_square(uuid, timestamptz),
  private.live_moment_on(uuid, uuid), private.tombstone_moment(uuid, uuid), private.cascade_moment(uuid),
  private.cascade_user_grid(uuid), private.narrow_moments(uuid),
  private.body_to_entry(uuid, uuid, text, grids.part_audience, timestamptz),
  private.unshare(uuid, text, uuid, uuid, uuid, text), private.rescue_group_moment(uuid, uuid),
  private.user_grids_rules(), private.user_grids_after(), private.user_squares_rules(),
  private.user_squares_after(), private.moments_rules(), private.moments_after(),
  private.follow_merges(uuid), private.entries_rules(), private.entries_after(), private.photos_rules(),
  private.photos_after(), private.profile_interests_rules(), private.grid_squares_fixed(),
  private.grid_squares_check(), private.grids_stamp(), private.hand_to_after(text, uuid, jsonb),
  private.take_from_before(text, uuid) from public;
-- Trigger bodies run as the client and call these; each checks the client.
grant execute on function private.create_squares(uuid), private.reveal_neighbours(uuid, int, timestamptz),
  private.reveal_square(uuid, timestamptz), private.live_moment_on(uuid, uuid),
  private.tombstone_moment(uuid, uuid), private.cascade_moment(uuid), private.cascade_user_grid(uuid),
  private.narrow_moments(uuid), private.body_to_entry(uuid, uuid, text, grids.part_audience, timestamptz),
  private.unshare(uuid, text, uuid, uuid, uuid, text), private.rescue_group_moment(uuid, uuid),
  private.follow_merges(uuid), private.is_member(uuid, uuid), private.hand_to_after(text, uuid, jsonb),
  private.take_from_before(text, uuid)
  to authenticated;
